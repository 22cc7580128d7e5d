import AsyncHTTPClient
import Foundation
import Testing
import VignetteCodecs

@Suite("vignette serve")
struct ServeCommandTests {
    /// The first stderr line that starts with `prefix`, read on a thread of its own (up to 60 s).
    func line(startingWith prefix: String, in process: Process) async throws -> String? {
        let pipe = try #require(process.standardError as? Pipe)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var text = ""
                let deadline = Date().addingTimeInterval(60)
                while Date() < deadline {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    text += String(decoding: chunk, as: UTF8.self)
                    if let found = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                        continuation.resume(returning: String(found))
                        return
                    }
                }
                continuation.resume(returning: nil)
            }
        }
    }

    @Test("serves imgproxy URLs on the port it prints, and exits 0 on SIGTERM")
    func serveAndStop() async throws {
        let process = try CLI.start(["serve", "--port", "0", "--root", CLI.fixtures.path, "--preset", "small=rs:fit:50:50"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let listening = try #require(try await line(startingWith: "vignette: listening on http://127.0.0.1:", in: process))
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/insecure/pr:small/plain/local:///baseline.jpg@png")
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 24)
            #expect(response.status.code == 200)
            let info = try ImageDecoder().probe(Data(body.readableBytesView))
            #expect(info.format == .png && info.width == 50 && info.height == 38)
            let missing = try await client.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/_/w:10/plain/local:///absent.jpg"), timeout: .seconds(60))
            #expect(missing.status.code == 404)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        kill(process.processIdentifier, SIGTERM)
        let (result, killed) = try await CLI.finish(process, killAfter: .seconds(60))
        #expect(!killed && !result.killedBySignal && result.status == 0, "\(result.status) \(result.stderr)")
    }

    @Test("bad settings are usage errors: exit 2 with one line")
    func badSettings() async throws {
        for arguments in [["--port", "70000"], ["--key", "xyz"], ["--root", "/nonexistent-folder"], ["--preset", "novalue"]] {
            let result = try await CLI.run(["serve"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count >= 1)
        }
    }
}
