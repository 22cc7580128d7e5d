import Foundation
import Hummingbird
import LoopbackHTTPClient
import Logging
import ServiceLifecycle
import Testing
import Vapor
import VignetteHummingbird
import VignetteServer
import VignetteVapor

/// The server's three doors, each run on 127.0.0.1 (a port from the kernel) for one row of the table.
enum Door: String, CaseIterable, Sendable {
    /// `ThumbnailServer.application()`, what `vignette serve` runs.
    case serve
    /// `addRoutes(to:)` on a Hummingbird router of an application of the test's own.
    case hummingbird
    /// `app.vignette.mount(at:configuration:)` in a Vapor application.
    case vapor

    /// Runs `body` with a client of this door serving `configuration`, then stops it.
    func with(_ configuration: ServerConfiguration, _ body: (LoopbackHTTPClient) async throws -> Void) async throws {
        switch self {
        case .serve:
            let server = try ThumbnailServer(configuration: configuration, logger: Logger(label: "test.door.serve"))
            try await Self.run(application: { onRunning in server.application(onRunning: onRunning) }, body)
        case .hummingbird:
            let server = try ThumbnailServer(configuration: configuration, logger: Logger(label: "test.door.hummingbird"))
            let router = Router()
            server.addRoutes(to: router)
            try await Self.run(
                application: { onRunning in
                    Hummingbird.Application(
                        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { await onRunning($0.localAddress?.port ?? 0) })
                }, body)
        case .vapor:
            let app = try await Vapor.Application.make(.testing)
            try app.vignette.mount(at: "", configuration: configuration)
            try await RunningVaporApp.serve(app, body)
        }
    }

    /// Runs the Hummingbird application `make` gives in a service group of its own.
    private static func run<App: ApplicationProtocol>(
        application make: (@escaping @Sendable (Int) async -> Void) -> App, _ body: (LoopbackHTTPClient) async throws -> Void
    ) async throws {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(configuration: .init(services: [make { portSink.yield($0) }], logger: Logger(label: "test.door")))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let client = LoopbackHTTPClient(port: port)
        let failure: (any Error)?
        do {
            try await body(client)
            failure = nil
        } catch {
            failure = error
        }
        try? await client.shutdown()
        await group.triggerGracefulShutdown()
        _ = try? await running.value
        if let failure { throw failure }
    }
}
