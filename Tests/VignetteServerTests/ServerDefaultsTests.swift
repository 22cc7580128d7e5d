import Testing
import Vignette
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

/// The defaults `vignette serve` runs with when no flag says otherwise.
@Suite("Server defaults: requests admitted and images decoded at once")
struct ServerDefaultsTests {
    @Test("twice the CPU quota of requests have work under way; the pipeline decodes at most the quota at once; a queue of up to half the timeout's expected wait")
    func concurrency() throws {
        let cores = max(1, CPUBudget.availableCores())
        var configuration = ServerConfiguration()
        #expect(configuration.maxConcurrentRequests == 2 * cores)
        #expect(configuration.maxWaitingRequests == nil && configuration.waitingLimit == 2048 * cores)
        #expect(configuration.maxQueueWait == nil && configuration.queueWaitTarget == .seconds(15))
        configuration.requestTimeout = .seconds(4)
        #expect(configuration.queueWaitTarget == .seconds(2))
        configuration.maxQueueWait = .milliseconds(1)
        #expect(configuration.queueWaitTarget == .milliseconds(1))
        let server = try ThumbnailServer(configuration: ServerConfiguration())
        #expect(server.pipeline.configuration.decodingConcurrency == cores)
    }
}
