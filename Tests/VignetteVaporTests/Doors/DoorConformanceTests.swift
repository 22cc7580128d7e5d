import Foundation
import LoopbackHTTPClient
import Testing
import VignetteServer

@Suite("One server behind every door: vignette serve, Hummingbird's addRoutes and Vapor's mount answer alike")
struct DoorConformanceTests {
    /// What a door answered to one request, less what the transport adds (`Date`, `Server`,
    /// `Connection`): the status, the headers (lower-cased names, sorted) and the body.
    struct Answer: Equatable, CustomStringConvertible {
        let status: Int
        let headers: [String]
        let body: Data?
        var description: String { "\(status) \(headers) \(body.map { "\($0.count) bytes" } ?? "body not compared")" }

        init(_ reply: LoopbackHTTPClient.Reply, comparesBody: Bool) {
            status = reply.status
            let transport: Set<String> = ["date", "server", "connection", "keep-alive"]
            headers = reply.headers.filter { !transport.contains($0.name.lowercased()) }
                .filter { comparesBody || $0.name.lowercased() != "content-length" }
                .map { "\($0.name.lowercased()): \($0.value)" }.sorted()
            body = comparesBody ? reply.body : nil
        }
    }

    /// Every request of the table through `door` serving `row`'s configuration.
    static func answers(of door: Door, for row: ConformanceTable.Row) async throws -> [Answer] {
        var answers: [Answer] = []
        let configuration = row.configuration
        // The row's own cache folder, if it has one, goes with the door.
        defer { if let folder = configuration.cacheFolder { try? FileManager.default.removeItem(atPath: folder) } }
        try await door.with(configuration) { client in
            for request in ConformanceTable.requests {
                let reply = try await client.send(request.method, request.path, headers: request.headers)
                answers.append(Answer(reply, comparesBody: request.comparesBody))
            }
        }
        return answers
    }

    @Test("every stored property of ServerConfiguration has a row of the table, or says why not")
    func everySettingHasARow() {
        let covered = Set(ConformanceTable.rows.flatMap(\.covers))
        let labels = Mirror(reflecting: ConformanceTable.base).children.compactMap(\.label)
        #expect(labels.count > 40)
        for label in labels {
            #expect(covered.contains(label) || ConformanceTable.exempt[label] != nil, "\(label) has no row in ConformanceTable.rows")
        }
        for name in covered.union(ConformanceTable.exempt.keys) {
            #expect(labels.contains(name), "\(name) is not a stored property of ServerConfiguration")
        }
    }

    // One row at a time: a detailed error carries libvips' message, which another row's decode
    // at the same moment can change.
    @Test("statuses, headers and bodies identical through the three doors", .serialized, arguments: ConformanceTable.rows)
    func identical(row: ConformanceTable.Row) async throws {
        let served = try await Self.answers(of: .serve, for: row)
        for door in [Door.hummingbird, .vapor] {
            let answers = try await Self.answers(of: door, for: row)
            for (index, request) in ConformanceTable.requests.enumerated() {
                #expect(answers[index] == served[index], "\(door) \(request): \(answers[index]) where serve: \(served[index])")
            }
        }
    }

    @Test("the issue's example: a secret and an allowed origin, enforced at each door", arguments: Door.allCases)
    func secretAndOrigin(door: Door) async throws {
        var configuration = ConformanceTable.base
        configuration.authorizationSecret = ConformanceTable.secret
        configuration.allowedOrigin = ConformanceTable.origin
        let path = "/insecure" + ConformanceTable.image
        try await door.with(configuration) { client in
            #expect(try await client.get(path).status == 403)
            #expect(try await client.get(path, headers: [("Authorization", "Bearer wrong")]).status == 403)
            let right = try await client.get(path, headers: [("Authorization", "Bearer " + ConformanceTable.secret)])
            #expect(right.status == 200 && right.header("Content-Type") == "image/png")
            #expect(right.header("Access-Control-Allow-Origin") == ConformanceTable.origin)
            #expect(right.header("Access-Control-Allow-Methods") == "GET, OPTIONS")
            let preflight = try await client.send("OPTIONS", path, headers: [("Origin", ConformanceTable.origin)])
            #expect(preflight.status == 200 && preflight.header("Access-Control-Allow-Origin") == ConformanceTable.origin)
            #expect(try await client.get("/health").status == 200)
        }
    }
}

extension DoorConformanceTests {
    @Test("Vapor gives %3B in a path as ';': a URL signed over %3B is refused there, as docs/server.md says")
    func vaporSemicolon() async throws {
        var configuration = ConformanceTable.base
        ConformanceTable.signed(&configuration)
        let encoded = ConformanceTable.sign("/rs:fit:32:32/plain/local:///no%3Bsuch.jpg@png")
        for door in Door.allCases {
            try await door.with(configuration) { client in
                let status = try await client.get(encoded).status
                #expect(status == (door == .vapor ? 403 : 404), "\(door)")
            }
        }
    }
}
