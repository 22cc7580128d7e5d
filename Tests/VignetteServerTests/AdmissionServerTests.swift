import Foundation
import LoopbackHTTPClient
import LoopbackHTTPServer
import TestTiming
import Testing
import Vignette
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

/// `vignette serve` admits work by its expected wait: bursts of cheap work are served, memory hits
/// never wait, and only what would not be served in time is refused, at once, with `Retry-After`.
@Suite("Admission by expected wait, over loopback")
struct AdmissionServerTests {
    static func metrics(_ running: RunningServer) async throws -> PrometheusText {
        try PrometheusText(String(decoding: try await running.get("/metrics").body, as: UTF8.self))
    }

    @Test("a burst of distinct cheap requests whose expected time fits is served whole, not cut at a fixed queue length")
    func cheapBurst() async throws {
        // The defaults but for a long timeout, so that the burst's expected time fits the target
        // (half the timeout) even when other work on the machine makes a thumbnail take seconds.
        try await RunningServer.with({ $0.requestTimeout = .seconds(600) }) { running in
            // 120 distinct thumbnails (a new box each), as many at once as the client's 64
            // connections carry: far past the old fixed queue (2 slots per core, 4 waiting per slot).
            let replies = try await running.burst(120) { index in
                "/insecure/rs:fit:\(40 + index):\(40 + index)/plain/local:///baseline.jpg@jpg"
            }
            let statuses = Dictionary(grouping: replies, by: \.status).mapValues(\.count)
            #expect(statuses == [200: 120], "\(statuses)")
            let metrics = try await Self.metrics(running)
            #expect(metrics.values("vignette_admission_shed_total") == [0])
            #expect(metrics.values("vignette_decodes_total") == [120])
            #expect(metrics.values("vignette_admission_queue_length") == [0])
            #expect(metrics.types["vignette_admission_expected_wait_seconds"] == "gauge")
            #expect((metrics.values("vignette_admission_service_time_seconds").first ?? 0) > 0)
        }
    }

    @Test("a burst sized from measured work, every request at once on its own connection, is served whole when its work fits the queue-wait target")
    func measuredBurst() async throws {
        // The default timeout (30 s) and queue-wait target (half of it).
        try await RunningServer.with { running in
            let wide = LoopbackHTTPClient(port: running.port, connections: 500)
            func burst(_ count: Int, from first: Int) async throws -> [Int] {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in first..<(first + count) {
                        group.addTask { try await wide.get("/insecure/rs:fit:\(20 + index):\(20 + index)/plain/local:///baseline.jpg@jpg").status }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            do {
                // What one thumbnail costs this server now: 8 distinct at once, after 4 to warm up.
                _ = try await burst(4, from: 0)
                let started = ContinuousClock.now
                #expect(try await burst(8, from: 4) == Array(repeating: 200, count: 8))
                let perRequest = (ContinuousClock.now - started) / 8
                // A burst whose whole work is a fifth of the 15 s target, at most 500 at once (at
                // least the 4 slots: on a machine too loaded for more, nothing waits).
                let count = max(4, min(500, Int(Duration.seconds(3) / perRequest)))
                let statuses = try await burst(count, from: 100)
                #expect(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count) == [200: count], "\(count) requests at \(perRequest) each")
                let metrics = try await Self.metrics(running)
                #expect(metrics.values("vignette_admission_shed_total") == [0])
            } catch {
                try? await wide.shutdown()
                throw error
            }
            try await wide.shutdown()
        }
    }

    @Test("with no queue wait allowed, requests that find the slot busy are refused at once with a numeric Retry-After, and counted")
    func tinyQueueWait() async throws {
        // A first request gives the service time; then anyone who would wait is refused.
        try await RunningServer.withSlotHeld({ $0.maxQueueWait = .zero }, prepare: { running async throws in
            let first = try await running.get("/insecure/rs:fit:20:20/plain/local:///baseline.jpg@png")
            #expect(first.status == 200)
        }) { running in
            #expect(try await running.becomesUnready())
            let replies = try await running.burst(5) { index in
                "/insecure/rs:fit:\(30 + index):\(30 + index)/plain/local:///baseline.jpg@png"
            }
            for reply in replies {
                #expect(reply.status == 503)
                #expect((Int(reply.header("Retry-After") ?? "") ?? 0) >= 1, "\(reply.headers)")
            }
            let metrics = try await Self.metrics(running)
            #expect(metrics.values("vignette_admission_shed_total") == [5])
            #expect(metrics.values("vignette_http_requests_total", ["status": "503"]) == [5])
            #expect(metrics.values("vignette_admission_running_requests") == [1])
            #expect(metrics.values("vignette_admission_queue_length") == [0])
            #expect((metrics.values("vignette_admission_expected_wait_seconds").first ?? 0) > 0)
        }
    }

    @Test("a result in the memory cache is answered while the only slot is busy, without waiting for it")
    func memoryHitWhileBusy() async throws {
        let path = "/insecure/rs:fit:48:48/plain/local:///baseline.jpg@webp"
        try await RunningServer.withSlotHeld({ _ in }, prepare: { running async throws in
            let warmed = try await running.get(path)
            #expect(warmed.status == 200)
        }) { running in
            let replies = try await running.burst(20) { _ in path }
            #expect(replies.allSatisfy { $0.status == 200 })
            let metrics = try await Self.metrics(running)
            #expect(metrics.values("vignette_cache_hits_total", ["layer": "encoded_memory"]) == [20])
            #expect(metrics.values("vignette_admission_running_requests") == [1])
            #expect(metrics.values("vignette_admission_shed_total") == [0])
        }
    }

    @Test("requests for a result a slot is making join that work without a slot or a place in the queue")
    func joinWorkUnderWay() async throws {
        let photo = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.folder + "/baseline.jpg")))
        try await RunningServer.withOrigin { origin in
            // 32 KB in 3 s or more: the first request holds its slot that long.
            origin.setRoute("/photo.jpg", Route(body: photo, contentType: "image/jpeg", delivery: .dribble(chunkSize: 1024, interval: .milliseconds(100))))
            try await RunningServer.with({ $0.maxConcurrentRequests = 1; $0.maxWaitingRequests = 0; $0.allowsLocalNetworks = true }) { running in
                let path = "/insecure/rs:fit:80:80/plain/\(origin.url("/photo.jpg"))@webp"
                let first = Task { try await running.get(path) }
                // The first holds the only slot, and no request may wait: the others join its work.
                #expect(await eventually { origin.requests(for: "/photo.jpg").count == 1 })
                let replies = try await running.burst(20) { _ in path }
                #expect(try await first.value.status == 200)
                #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.map(\.status))")
                let metrics = try await Self.metrics(running)
                #expect(metrics.values("vignette_decodes_total") == [1])
                #expect(metrics.values("vignette_admission_shed_total") == [0])
                #expect(origin.requests(for: "/photo.jpg").count == 1)
            }
        }
    }
}
