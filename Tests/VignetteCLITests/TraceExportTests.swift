import AsyncHTTPClient
import Foundation
import LoopbackHTTPServer
import Testing

/// One span as an OTLP/JSON export carries it.
struct ExportedSpan {
    let name: String
    let traceID: String
    let spanID: String
    let parentSpanID: String
    let kind: Int
    let attributes: [String: Any]
}

@Suite("vignette serve --otel-endpoint: traces exported over OTLP/HTTP")
struct TraceExportTests {
    /// `body` with a collector on 127.0.0.1 that accepts every export; returns the exports it got.
    func withCollector(_ body: (LoopbackHTTPServer) async throws -> Void) async throws -> [RecordedRequest] {
        let collector = try await LoopbackHTTPServer.start()
        collector.setRoute("/v1/traces", Route(body: Array("{}".utf8), contentType: "application/json"))
        do {
            try await body(collector)
        } catch {
            await collector.stop()
            throw error
        }
        await collector.stop()
        return collector.requests(for: "/v1/traces")
    }

    /// Starts `vignette serve` over the fixtures with `arguments` and `environment`, asks it for
    /// `paths` in turn (each must answer 200), stops it with SIGTERM and expects exit 0: the
    /// exporter sends what it holds as the server shuts down.
    func serve(_ arguments: [String], environment: [String: String], paths: [String]) async throws {
        let (result, killed) = try await CLI.serving(
            ["--bind", "127.0.0.1:0", "--root", CLI.fixtures.path] + arguments, environment: environment
        ) { client, server in
            for path in paths {
                let response = try await client.execute(HTTPClientRequest(url: server + path), timeout: .seconds(60))
                _ = try await response.body.collect(upTo: 1 << 24)
                #expect(response.status.code == 200, "\(path)")
            }
        }
        #expect(!killed && !result.killedBySignal && result.status == 0, "\(result.status) \(result.stderr)")
    }

    /// The spans of OTLP/JSON `bodies`, and the resources' `service.name`s.
    static func spans(in bodies: [[UInt8]]) throws -> (spans: [ExportedSpan], services: Set<String>) {
        var spans: [ExportedSpan] = []
        var services: Set<String> = []
        for body in bodies {
            let export = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            for resourceSpans in export["resourceSpans"] as? [[String: Any]] ?? [] {
                let resource = resourceSpans["resource"] as? [String: Any]
                let resourceAttributes = Self.attributes(resource?["attributes"])
                if let service = resourceAttributes["service.name"] as? String { services.insert(service) }
                for scope in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        spans.append(ExportedSpan(
                            name: span["name"] as? String ?? "", traceID: span["traceId"] as? String ?? "",
                            spanID: span["spanId"] as? String ?? "", parentSpanID: span["parentSpanId"] as? String ?? "",
                            kind: span["kind"] as? Int ?? 0, attributes: Self.attributes(span["attributes"])))
                    }
                }
            }
        }
        return (spans, services)
    }

    /// OTLP/JSON key-value pairs as a dictionary of their values (strings, integers as strings, Booleans).
    static func attributes(_ list: Any?) -> [String: Any] {
        var attributes: [String: Any] = [:]
        for pair in list as? [[String: Any]] ?? [] {
            guard let key = pair["key"] as? String, let value = pair["value"] as? [String: Any] else { continue }
            attributes[key] = value["stringValue"] ?? value["intValue"] ?? value["boolValue"] ?? value["doubleValue"]
        }
        return attributes
    }

    @Test("--otel-endpoint with OTLP/JSON: the request's server span, the pipeline's span under it and the stages under that, one trace; OTEL_SERVICE_NAME names the service")
    func exportedTree() async throws {
        let exports = try await withCollector { collector in
            try await serve(
                ["--otel-endpoint", collector.url("")],
                environment: ["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_SERVICE_NAME": "vignette-test"],
                paths: ["/insecure/rs:fit:50:50/pix:4/plain/local:///baseline.jpg@webp"])
        }
        try #require(!exports.isEmpty, "no export reached the collector")
        #expect(exports.allSatisfy { $0.method == "POST" && $0.header("Content-Type") == "application/json" })
        let (spans, services) = try Self.spans(in: exports.map(\.body))
        #expect(services == ["vignette-test"])

        let pipeline = try #require(spans.first { $0.name == "vignette.encoded_image" })
        let server = try #require(spans.first { $0.spanID == pipeline.parentSpanID }, "the pipeline's span has no parent among \(spans.map(\.name))")
        #expect(server.kind == 2 && server.attributes["http.request.method"] as? String == "GET")
        #expect(server.traceID == pipeline.traceID)
        let stages = Set(spans.filter { $0.parentSpanID == pipeline.spanID }.map(\.name))
        #expect(stages.isSuperset(of: ["vignette.cache.memory", "vignette.fetch", "vignette.decode", "vignette.process", "vignette.encode"]),
                "\(stages)")
        #expect(spans.filter { $0.parentSpanID == pipeline.spanID }.allSatisfy { $0.traceID == pipeline.traceID })
        let encode = try #require(spans.first { $0.name == "vignette.encode" })
        #expect(encode.attributes["vignette.encode.format"] as? String == "webp")
    }

    @Test("OTEL_EXPORTER_OTLP_ENDPOINT alone turns the export on, OTLP/protobuf by default; the default service name is vignette")
    func environmentEndpoint() async throws {
        let exports = try await withCollector { collector in
            try await serve(
                [], environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": collector.url("")],
                paths: ["/insecure/w:40/plain/local:///baseline.jpg@png", "/insecure/w:40/plain/local:///baseline.jpg@png"])
        }
        try #require(!exports.isEmpty, "no export reached the collector")
        #expect(exports.allSatisfy { $0.header("Content-Type") == "application/x-protobuf" })
        // Protobuf carries strings as they are: the span names and the service name are in the bytes.
        let bytes = exports.flatMap(\.body)
        for name in ["vignette.encoded_image", "vignette.cache.memory", "vignette.decode_encode"] {
            #expect(bytes.contains(Array(name.utf8)), "\(name)")
        }
        #expect(!bytes.contains(Array("unknown_service".utf8)))
    }

    @Test("--otel-endpoint must be an http(s) URL, and OTLP/gRPC is refused (not built in): usage errors")
    func badEndpoint() async throws {
        for endpoint in ["collector:4318", "ftp://127.0.0.1:4318", "http://"] {
            let result = try await CLI.run(["serve", "--otel-endpoint", endpoint])
            #expect(result.status == 2, "\(endpoint): \(result.stderr)")
        }
        for variable in ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] {
            let result = try await CLI.run(["serve", "--otel-endpoint", "http://127.0.0.1:4318"], environment: [variable: "grpc"])
            #expect(result.status == 2 && result.stderr.contains("\(variable)=grpc"), "\(result.stderr)")
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in the bytes.
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { start in self[start..<start + needle.count].elementsEqual(needle) }
    }
}
