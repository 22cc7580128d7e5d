import AsyncHTTPClient
import LoopbackHTTPClient
import Foundation
import Hummingbird
import LoopbackHTTPServer
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Testing
import TestTiming
import Vignette
import VignetteHummingbird
import VignetteImgproxy
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

extension RunningServer {
    /// Runs `body` with an origin server of its own on 127.0.0.1, stopped afterwards whatever happens.
    static func withOrigin(_ body: (LoopbackHTTPServer) async throws -> Void) async throws {
        let origin = try await LoopbackHTTPServer.start()
        do {
            try await body(origin)
        } catch {
            await origin.stop()
            throw error
        }
        await origin.stop()
    }

    /// `count` GETs at once, of `path(i)` for each i.
    func burst(_ count: Int, _ path: @escaping @Sendable (Int) -> String) async throws -> [Reply] {
        try await withThrowingTaskGroup(of: Reply.self) { group in
            for index in 0..<count { group.addTask { try await get(path(index)) } }
            var replies: [Reply] = []
            for try await reply in group { replies.append(reply) }
            return replies
        }
    }

    /// Runs `body` against a server of one slot (`configure` applied), once its slot is held by a
    /// request for a source that never finishes sending; `prepare` runs before. The held request
    /// ends in 504 at the request timeout (10 s: on a loaded machine a request can take seconds to
    /// reach the source), after `body`; then the slot serves again.
    static func withSlotHeld(
        _ configure: @escaping (inout ServerConfiguration) -> Void, prepare: (RunningServer) async throws -> Void = { _ in },
        _ body: (RunningServer) async throws -> Void
    ) async throws {
        try await withOrigin { origin in
            origin.setRoute("/stalled.jpg", Route(body: Array(repeating: 0, count: 1000), contentType: "image/jpeg", delivery: .stall))
            try await RunningServer.with({
                $0.maxConcurrentRequests = 1
                $0.allowsLocalNetworks = true
                $0.requestTimeout = .seconds(10)
                configure(&$0)
            }) { running in
                try await prepare(running)
                let stalled = Task { try await running.get("/insecure/rs:fit:32:32/plain/\(origin.url("/stalled.jpg"))@png") }
                #expect(await eventually { origin.requests(for: "/stalled.jpg").count == 1 })
                try await body(running)
                let timedOut = try await stalled.value
                #expect(timedOut.status == 504, "\(String(decoding: timedOut.body, as: UTF8.self))")
                #expect(try await running.get("/insecure/rs:fit:32:32/plain/local:///orientation-3.jpg@png").status == 200)
            }
        }
    }

    /// Whether `/ready` answers 503 within a minute: a request arriving now would be refused.
    func becomesUnready() async throws -> Bool {
        for _ in 0..<30_000 {
            if try await get("/ready").status == 503 { return true }
            try await Task.sleep(for: .milliseconds(2))
        }
        return false
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
