import Foundation
import Testing
import Vignette
import VignetteServer

/// `vignette serve` admits work by its expected wait: bursts of cheap work are served, memory hits
/// never wait, and only what would not be served in time is refused, at once, with `Retry-After`.
@Suite("Admission by expected wait, over loopback")
struct AdmissionServerTests {
    /// `count` GETs of `paths(i)` at once; their statuses and `Retry-After` headers.
    static func burst(_ running: RunningServer, count: Int, _ path: @escaping @Sendable (Int) -> String) async throws -> [RunningServer.Reply] {
        try await withThrowingTaskGroup(of: RunningServer.Reply.self) { group in
            for index in 0..<count { group.addTask { try await running.get(path(index)) } }
            var replies: [RunningServer.Reply] = []
            for try await reply in group { replies.append(reply) }
            return replies
        }
    }

    static func metrics(_ running: RunningServer) async throws -> PrometheusText {
        try PrometheusText(String(decoding: try await running.get("/metrics").body, as: UTF8.self))
    }

    @Test("a burst of distinct cheap requests against the defaults is served (nearly) whole, not cut at a fixed queue length")
    func cheapBurst() async throws {
        try await RunningServer.with { running in
            // 120 distinct thumbnails (a new box each), as many at once as the client's 64
            // connections carry: far past the old fixed queue (2 slots per core, 4 waiting per
            // slot), well inside what the slots do in half the request timeout. "Nearly": a
            // machine stalled by other work may make a service time that sheds a few.
            let replies = try await Self.burst(running, count: 120) { index in
                "/insecure/rs:fit:\(40 + index):\(40 + index)/plain/local:///baseline.jpg@jpg"
            }
            let statuses = Dictionary(grouping: replies, by: \.status).mapValues(\.count)
            #expect(Set(statuses.keys).isSubset(of: [200, 503]) && statuses[200, default: 0] >= 114, "\(statuses)")
            let metrics = try await Self.metrics(running)
            #expect(metrics.values("vignette_admission_shed_total") == [Double(statuses[503, default: 0])])
            #expect(metrics.values("vignette_decodes_total") == [Double(statuses[200, default: 0])])
            #expect(metrics.values("vignette_admission_queue_length") == [0])
            #expect(metrics.types["vignette_admission_expected_wait_seconds"] == "gauge")
            #expect((metrics.values("vignette_admission_service_time_seconds").first ?? 0) > 0)
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
            let replies = try await Self.burst(running, count: 5) { index in
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
            let replies = try await Self.burst(running, count: 20) { _ in path }
            #expect(replies.allSatisfy { $0.status == 200 })
            let metrics = try await Self.metrics(running)
            #expect(metrics.values("vignette_cache_hits_total", ["layer": "encoded_memory"]) == [20])
            #expect(metrics.values("vignette_admission_running_requests") == [1])
            #expect(metrics.values("vignette_admission_shed_total") == [0])
        }
    }
}
