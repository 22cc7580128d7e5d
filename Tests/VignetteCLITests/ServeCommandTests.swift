import ChildProcess
import AsyncHTTPClient
import Foundation
import Testing
import LoopbackHTTPServer
import VignetteCodecs

@Suite("vignette serve")
struct ServeCommandTests {
    /// The first stderr line that starts with `prefix` (waited for up to 300 s: a sanitizer build
    /// starting on a loaded machine is slow, and the wait ends as soon as the line comes).
    func line(startingWith prefix: String, in process: ChildProcess) async throws -> String? {
        await process.line(inStandardErrorStartingWith: prefix)
    }

    @Test("serves imgproxy URLs on the port it prints, and exits 0 on SIGTERM")
    func serveAndStop() async throws {
        let (result, killed) = try await CLI.serving(
            ["--bind", "127.0.0.1:0", "--root", CLI.fixtures.path, "--preset", "small=rs:fit:50:50"]
        ) { client, server in
            let request = HTTPClientRequest(url: server + "/insecure/pr:small/plain/local:///baseline.jpg@png")
            let response = try await client.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 24)
            #expect(response.status.code == 200)
            let info = try ImageDecoder().probe(Data(body.readableBytesView))
            #expect(info.format == .png && info.width == 50 && info.height == 38)
            let missing = try await client.execute(HTTPClientRequest(url: server + "/_/w:10/plain/local:///absent.jpg"), timeout: .seconds(60))
            #expect(missing.status.code == 404)
        }
        #expect(!killed && !result.killedBySignal && result.status == 0, "\(result.status) \(result.stderr)")
    }

    @Test("SIGTERM with a request in flight: the request completes, then the process exits 0")
    func gracefulShutdown() async throws {
        let origin = try await LoopbackHTTPServer.start()
        let photo = Array(try Data(contentsOf: CLI.fixtures.appendingPathComponent("baseline.jpg")))
        // About a second and a half to deliver: the SIGTERM lands while it is being fetched.
        origin.setRoute("/slow.jpg", Route(body: photo, contentType: "image/jpeg", delivery: .dribble(chunkSize: 1024, interval: .milliseconds(40))))
        let process = try CLI.start(["serve", "--bind", "127.0.0.1:0", "--allow-private-sources"])
        defer { process.send(SIGKILL) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let listening = try #require(try await line(startingWith: "vignette: listening on http://127.0.0.1:", in: process))
            let port = try #require(Int(listening.split(separator: ":").last ?? ""))
            let inFlight = Task {
                let response = try await client.execute(
                    HTTPClientRequest(url: "http://127.0.0.1:\(port)/insecure/w:40/plain/\(origin.url("/slow.jpg"))@png"), timeout: .seconds(60))
                return (response.status.code, try await response.body.collect(upTo: 1 << 24).readableBytes)
            }
            for _ in 0..<30_000 where origin.requests(for: "/slow.jpg").isEmpty { try await Task.sleep(for: .milliseconds(1)) }
            #expect(origin.requests(for: "/slow.jpg").count == 1)
            process.send(SIGTERM)
            let (status, bytes) = try await inFlight.value
            #expect(status == 200 && bytes > 0)
        } catch {
            try? await client.shutdown()
            await origin.stop()
            throw error
        }
        try await client.shutdown()
        await origin.stop()
        let (result, killed) = await CLI.finish(process, killAfter: .seconds(60))
        #expect(!killed && !result.killedBySignal && result.status == 0, "\(result.status) \(result.stderr)")
    }

    @Test("bad settings are usage errors: exit 2 with one line")
    func badSettings() async throws {
        for arguments in [["--bind", "127.0.0.1:70000"], ["--bind", "nonsense"], ["--key", "xyz"], ["--root", "/nonexistent-folder"], ["--preset", "novalue"], ["--max-concurrency", "0"],
                          ["--memory-cache-size", "-1"], ["--keep-alive-timeout", "0"], ["--redis", "redis://127.0.0.1:6379", "--redis-timeout", "0"],
                          ["--max-queue-wait=-1"], ["--max-queue-wait", "nan"], ["--max-queue-wait", "4000"]] {
            let result = try await CLI.run(["serve"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderrLines.count >= 1)
        }
    }
}
