import Foundation
import LoopbackHTTPServer
import Testing
import Vignette
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

@Suite("vignette serve: connections kept alive, and clients that leave")
struct ConnectionTests {
    @Test("processed requests keep their connection: two thumbnails that each decode, one after the other on one connection")
    func keptAlive() async throws {
        try await RunningServer.with { running in
            let port = running.port
            let (first, second, closed) = try await onDispatchThread { () -> (RawHTTPConnection.Response, RawHTTPConnection.Response, Bool) in
                let connection = try RawHTTPConnection(port: port)
                try connection.sendGet("/insecure/rs:fit:40:40/plain/local:///baseline.jpg@jpg")
                let first = try connection.readResponse()
                try connection.sendGet("/insecure/rs:fit:24:24/plain/local:///baseline.jpg@png")
                let second = try connection.readResponse()
                connection.shutdownWrite()
                return (first, second, connection.readsEndOfFile())
            }
            #expect(first.status == 200 && first.headers["content-type"] == "image/jpeg")
            #expect(first.headers["connection"] == nil, "\(first.headers)")
            #expect(first.body.starts(with: [0xFF, 0xD8]))
            #expect(second.status == 200 && second.headers["content-type"] == "image/png")
            #expect(second.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            #expect(closed, "the server closes the connection once the client has closed its side")
            let metrics = String(decoding: try await running.get("/metrics").body, as: UTF8.self)
            #expect(ServerTests.value(of: "vignette_decodes_total", in: metrics) == 2, "both requests were processed")
        }
    }

    @Test("a connection with no request, or half a request head, is closed after the keep-alive timeout")
    func idleClosed() async throws {
        try await RunningServer.with({ $0.keepAliveTimeout = .seconds(1) }) { running in
            let port = running.port
            let (silentClosed, slowClosed, elapsed) = try await onDispatchThread { () -> (Bool, Bool, Duration) in
                let started = ContinuousClock.now
                let silent = try RawHTTPConnection(port: port)
                let slow = try RawHTTPConnection(port: port)
                try slow.sendRaw("GET /insecure/w:32/plain/local:///baseline.jpg@png HTTP/1.1\r\nHost: 127")
                return (silent.readsEndOfFile(), slow.readsEndOfFile(), ContinuousClock.now - started)
            }
            #expect(silentClosed && slowClosed)
            #expect(elapsed < .seconds(50), "closed by the 1-s keep-alive timeout, not by the test's 60-s read timeout")
            #expect(try await running.get("/health").status == 200)
        }
    }

    @Test("a client that disconnects mid-request leaves no work running: the request ends at once, not at its timeout")
    func disconnect() async throws {
        try await Self.expectWorkStops { running, path in
            let request = Task { try await running.get(path) }
            return {
                request.cancel()  // AsyncHTTPClient closes the connection
                _ = try? await request.value
            }
        }
    }

    @Test("a client that closes its sending side mid-request (a FIN) stops the work: in flight drops to 0 long before the timeout")
    func halfClosed() async throws {
        try await Self.expectWorkStops { running, path in
            let port = running.port
            let connection = try await onDispatchThread {
                let connection = try RawHTTPConnection(port: port)
                try connection.sendGet(path)
                return UncheckedBox(connection)
            }
            return { connection.value.shutdownWrite() }
        }
    }

    /// A request for a source that stalls, sent by `client` (which returns how the client then
    /// leaves) to a server with a 600-s timeout: once the source is asked and the request is in
    /// flight, the client leaves, and the work must stop (in flight back to 0) long before then.
    static func expectWorkStops(
        _ client: (RunningServer, String) async throws -> @Sendable () async -> Void
    ) async throws {
        let origin = try await LoopbackHTTPServer.start()
        origin.setRoute("/stalled.jpg", Route(body: Array(repeating: 0, count: 1000), contentType: "image/jpeg", delivery: .stall))
        do {
            try await RunningServer.with({ $0.allowsLocalNetworks = true; $0.requestTimeout = .seconds(600) }) { running in
                let leave = try await client(running, "/insecure/w:32/plain/\(origin.url("/stalled.jpg"))@png")
                for _ in 0..<30_000 where origin.requests(for: "/stalled.jpg").isEmpty { try await Task.sleep(for: .milliseconds(1)) }
                #expect(origin.requests(for: "/stalled.jpg").count == 1)
                func inFlight() async throws -> Double {
                    ServerTests.value(of: "vignette_in_flight", in: String(decoding: try await running.get("/metrics").body, as: UTF8.self))
                }
                #expect(try await inFlight() == 1)
                await leave()
                var ended = false
                for _ in 0..<600 where !ended {
                    ended = try await inFlight() == 0
                    if !ended { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(ended, "the request was still being worked on 60 s after its client left (its timeout is 600 s)")
            }
        } catch {
            await origin.stop()
            throw error
        }
        await origin.stop()
    }
}

/// Hands a value that one task uses at a time to another task.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
