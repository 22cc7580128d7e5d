import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import OTel
import ServiceLifecycle

/// `vignette serve`'s trace export: OTLP over HTTP through swift-otel, on when `--otel-endpoint`
/// or the OpenTelemetry environment names a collector.
///
/// The endpoint is a base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` is: spans go to its `/v1/traces`.
/// The other standard variables apply as swift-otel reads them (`OTEL_SERVICE_NAME`, default
/// "vignette"; `OTEL_EXPORTER_OTLP_PROTOCOL`, `http/protobuf` by default or `http/json`;
/// `OTEL_EXPORTER_OTLP_HEADERS`; `OTEL_BSP_SCHEDULE_DELAY`; `OTEL_TRACES_SAMPLER`). Only traces
/// are exported: logs and metrics keep their own outputs (standard error, `/metrics`).
enum TraceExport {
    /// The variables that name a collector.
    static let endpointVariables = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]

    /// Checks `--otel-endpoint` (an http(s) URL) and, when an export is asked for, the protocol
    /// the environment names: OTLP/gRPC is not built in, and swift-otel stops the process when
    /// asked for it, so it is refused here as a usage error.
    static func validate(endpoint: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let endpoint {
            guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--otel-endpoint takes an http(s) URL, got \(endpoint)")
            }
        }
        guard endpoint != nil || endpointVariables.contains(where: { !(environment[$0] ?? "").isEmpty }) else { return }
        let variable = ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"].first { !(environment[$0] ?? "").isEmpty }
        if let variable, let value = environment[variable], value.lowercased() == "grpc" {
            throw ValidationError("\(variable)=grpc: traces are exported over HTTP only (http/protobuf or http/json)")
        }
    }

    /// Bootstraps the process's tracer with an OTLP/HTTP exporter when `endpoint` (the flag, which
    /// wins) or the environment names a collector, and returns the service that exports the spans
    /// (run it in the server's service group: it sends what is left when the group shuts down);
    /// nil, and nothing bootstrapped, when neither does.
    static func bootstrap(endpoint: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (any Service)? {
        var environment = environment
        if let endpoint {
            environment["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint
            environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] = nil
        }
        guard endpointVariables.contains(where: { !(environment[$0] ?? "").isEmpty }) else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "vignette"
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        return try OTel.bootstrap(configuration: configuration, environment: environment)
    }
}
