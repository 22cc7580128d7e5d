import AsyncHTTPClient
import ChildProcess
import Foundation
import Testing

extension CLI {
    /// Starts `vignette serve` with `arguments` (and `environment`), waits for the address it
    /// prints, hands `body` an HTTP client and the server's base URL (`http://127.0.0.1:PORT`),
    /// then sends SIGTERM and returns how the process ended (killed if it runs 60 s more).
    static func serving(
        _ arguments: [String], environment: [String: String]? = nil, _ body: (HTTPClient, String) async throws -> Void
    ) async throws -> (result: CLIResult, killed: Bool) {
        let process = try start(["serve"] + arguments, environment: environment)
        defer { process.send(SIGKILL) }
        let listening = try #require(await process.line(inStandardErrorStartingWith: "vignette: listening on http://127.0.0.1:"))
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await body(client, "http://127.0.0.1:\(port)")
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        process.send(SIGTERM)
        return await finish(process, killAfter: .seconds(60))
    }
}
