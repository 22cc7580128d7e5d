import Testing
import Vignette
import VignetteServer

/// The defaults `vignette serve` runs with when no flag says otherwise.
@Suite("Server defaults: requests admitted and images decoded at once")
struct ServerDefaultsTests {
    @Test("twice the CPU quota of requests have work under way; the pipeline decodes at most the quota at once; 4 wait per slot")
    func concurrency() throws {
        let cores = max(1, CPUBudget.availableCores())
        let configuration = ServerConfiguration()
        #expect(configuration.maxConcurrentRequests == 2 * cores)
        #expect(configuration.maxWaitingRequests == 8 * cores)
        let server = try ThumbnailServer(configuration: configuration)
        #expect(server.pipeline.configuration.decodingConcurrency == cores)
    }
}
