import AsyncHTTPClient
import LoopbackHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Testing
import Vignette
import VignetteServer

/// A `ThumbnailServer` listening on 127.0.0.1 (a port from the kernel) for one test, and a client.
struct RunningServer {
    let server: ThumbnailServer
    let port: Int
    let client: LoopbackHTTPClient

    /// What a GET gave.
    typealias Reply = LoopbackHTTPClient.Reply

    /// Runs `body` against a server made with `configure` applied to a local-root configuration
    /// serving the repository's Fixtures/, logging to `logger`.
    static func with(
        _ configure: (inout ServerConfiguration) -> Void = { _ in }, logger: Logger = Logger(label: "test.server"),
        _ body: (RunningServer) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, localRoot: Fixtures.folder)
        configure(&configuration)
        let server = try ThumbnailServer(configuration: configuration, logger: logger)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let group = ServiceGroup(configuration: .init(
            services: [server.application(onRunning: { port in portSink.yield(port) })], logger: Logger(label: "test.group")))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            running.cancel()
            throw TestFailure("the server did not start")
        }
        let client = LoopbackHTTPClient(port: port)
        do {
            try await body(RunningServer(server: server, port: port, client: client))
        } catch {
            try? await client.shutdown()
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
        try await client.shutdown()
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// GET `path` (as it is written: already percent-encoded) with `headers`.
    func get(_ path: String, headers: [(String, String)] = []) async throws -> Reply {
        try await client.get(path, headers: headers)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum Fixtures {
    /// The repository's Fixtures/ folder.
    static var folder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures").path
    }
}

/// A Hummingbird application of the test's own on 127.0.0.1 (a port from the kernel), and a client.
enum LoopbackApplication {
    /// Runs `body` against an application of `router`, then stops it.
    static func with(router: Router<BasicRequestContext>, _ body: (LoopbackHTTPClient) async throws -> Void) async throws {
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "test.embedded")))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw TestFailure("the application did not start") }
        let client = LoopbackHTTPClient(port: port)
        do {
            try await body(client)
        } catch {
            try? await client.shutdown()
            await group.triggerGracefulShutdown()
            throw error
        }
        try await client.shutdown()
        await group.triggerGracefulShutdown()
        try await running.value
    }
}

/// A Hummingbird application of the test's own with the server's routes mounted under a prefix.
enum EmbeddedApplication {
    static func get(server: ThumbnailServer, prefix: String, path: String) async throws -> RunningServer.Reply {
        let router = Router(context: BasicRequestContext.self)
        router.get("/own") { _, _ in "the application's own route" }
        server.addRoutes(to: router, prefix: prefix)
        var reply: RunningServer.Reply?
        try await LoopbackApplication.with(router: router) { client in reply = try await client.get(path) }
        return try #require(reply)
    }
}
