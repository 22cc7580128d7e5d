import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// GETs to a server of the test's own on 127.0.0.1, with as many connections as a test sends
/// requests at once and a minute to get one on a loaded machine.
public struct LoopbackHTTPClient: Sendable {
    /// The server's port.
    public let port: Int
    /// The client; `shutdown()` it when done.
    public let client: HTTPClient

    /// What a GET gave.
    public struct Reply: Sendable {
        public let status: Int
        public let headers: HTTPHeaders
        public let body: Data

        public init(status: Int, headers: HTTPHeaders, body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The first value of the header `name`.
        public func header(_ name: String) -> String? { headers.first(name: name) }
        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// A client of its own for the server on `port`, with up to `connections` at once.
    public init(port: Int, connections: Int = 64) {
        var configuration = HTTPClient.Configuration()
        // 50 equal requests are meant to be in flight together, not 8 at a time.
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        configuration.timeout.connect = .seconds(60)
        self.init(port: port, client: HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration))
    }

    /// `client` for the server on `port`.
    public init(port: Int, client: HTTPClient) {
        self.port = port
        self.client = client
    }

    /// GET `path` (as it is written: already percent-encoded) with `headers`.
    public func get(_ path: String, headers: [(String, String)] = []) async throws -> Reply {
        try await send("GET", path, headers: headers)
    }

    /// `method` (GET, HEAD, OPTIONS, POST…) of `path` (as it is written) with `headers`, no body.
    public func send(_ method: String, _ path: String, headers: [(String, String)] = []) async throws -> Reply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    /// The statuses of `count` GETs of `path` with `headers`, all sent at once.
    public func statuses(ofConcurrent count: Int, _ path: String, headers: [(String, String)] = []) async throws -> [Int] {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count { group.addTask { try await get(path, headers: headers).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Closes the client's connections.
    public func shutdown() async throws { try await client.shutdown() }
}
