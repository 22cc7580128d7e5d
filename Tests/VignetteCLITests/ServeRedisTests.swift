import ChildProcess
import AsyncHTTPClient
import Foundation
import RedisTestServer
import Testing
import VignetteCodecs

@Suite("vignette serve --redis")
struct ServeRedisTests {
    /// A `vignette serve` process on a free port, with its port.
    struct Server {
        let process: ChildProcess
        let port: Int

        static func start(_ arguments: [String]) async throws -> Server {
            let process = try CLI.start(["serve", "--bind", "127.0.0.1:0", "--root", CLI.fixtures.path] + arguments)
            guard let listening = try await ServeCommandTests().line(startingWith: "vignette: listening on http://127.0.0.1:", in: process),
                let port = Int(listening.split(separator: ":").last ?? "")
            else {
                process.send(SIGKILL)
                throw CLIFailure("vignette serve did not say where it listens")
            }
            return Server(process: process, port: port)
        }

        func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

        func stop() async throws -> CLIResult {
            process.send(SIGTERM)
            return await CLI.finish(process, killAfter: .seconds(60)).0
        }
    }

    struct CLIFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The value of the Prometheus sample `name{labels}` in `text` (0 when the series is absent).
    static func sample(_ text: String, _ name: String, _ labels: String = "") -> Double {
        let series = labels.isEmpty ? name : "\(name){\(labels)}"
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.split(separator: " ").last ?? "") ?? .nan
        }
        return 0
    }

    func get(_ client: HTTPClient, _ url: String) async throws -> (status: UInt, body: Data) {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
        return (response.status.code, Data(try await response.body.collect(upTo: 1 << 24).readableBytesView))
    }

    @Test("a second instance serves what the first made from Redis, with no fetch, decode or encode")
    func twoInstancesShareResults() async throws {
        let redis = try RedisTestServer.start()
        defer { redis.stop() }
        // Generous timeouts: the suite runs in parallel on a loaded machine (the 50 ms default is
        // for a Redis next door, not for one starved of CPU by the tests around it).
        let first = try await Server.start(["--redis", redis.url(), "--redis-timeout", "2000"])
        defer { first.process.send(SIGKILL) }
        let second = try await Server.start(["--redis", redis.url(), "--redis-timeout", "2000"])
        defer { second.process.send(SIGKILL) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let path = "/insecure/rs:fit:64:64/plain/local:///baseline.jpg@webp"
            let made = try await get(client, first.url(path))
            #expect(made.status == 200)
            // The first instance writes to Redis in the background: wait until the key is there.
            let deadline = ContinuousClock.now + .seconds(60)
            while (try? redis.cli(["DBSIZE"])) != "1", ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(try redis.cli(["DBSIZE"]) == "1")
            let served = try await get(client, second.url(path))
            #expect(served.status == 200 && served.body == made.body)
            let info = try ImageDecoder().probe(served.body)
            #expect(info.format == .webp && max(info.width, info.height) == 64)
            let metrics = String(decoding: try await get(client, second.url("/metrics")).body, as: UTF8.self)
            #expect(Self.sample(metrics, "vignette_cache_hits_total", "layer=\"redis\"") == 1)
            #expect(Self.sample(metrics, "vignette_source_fetches_total") == 0)
            #expect(Self.sample(metrics, "vignette_decodes_total") == 0)
            #expect(Self.sample(metrics, "vignette_encodes_total") == 0)

            // Redis stops: the second instance still answers, from the source, and counts the failure.
            redis.stop()
            let withoutRedis = try await get(client, second.url("/insecure/rs:fit:48:48/plain/local:///baseline.jpg@webp"))
            #expect(withoutRedis.status == 200)
            let after = String(decoding: try await get(client, second.url("/metrics")).body, as: UTF8.self)
            #expect(Self.sample(after, "vignette_redis_errors_total", "operation=\"get\"") >= 1)
            #expect(Self.sample(after, "vignette_decodes_total") == 1)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        #expect(try await first.stop().status == 0)
        #expect(try await second.stop().status == 0)
    }

    @Test("a bad --redis URL is refused at start with exit 2")
    func badURL() async throws {
        let result = try await CLI.run(["serve", "--bind", "127.0.0.1:0", "--redis", "http://cache:6379"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--redis") && result.stderr.contains("not a redis:// URL"))
    }
}
