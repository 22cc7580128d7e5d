import Foundation
import RedisTestServer
import Vignette
import VignetteCodecs
@testable import VignetteRedis
import TestTiming
import VignetteSupport

enum Files {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func fixture(_ name: String) -> String { repository.appendingPathComponent("Fixtures/\(name)").path }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-redis-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Reads files like `FileDataLoader`, counting the loads: the source fetches of a pipeline.
final class CountingFileLoader: DataLoading {
    private let count = Locked(0)
    var loads: Int { count.withLock { $0 } }

    func loadData(for request: ImageRequest, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Data {
        count.withLock { $0 += 1 }
        return try await FileDataLoader().loadData(for: request, progress: progress)
    }
}

extension RedisConfiguration {
    /// The test server's configuration, with a short breaker cooldown so that tests see it close,
    /// and timeouts long enough for a redis-server starved of CPU by the tests running beside it
    /// (`timeout`; the tests of the timeout itself pass a short one).
    static func testing(_ server: RedisTestServer, namespace: String = "test", timeout: Duration = .seconds(2)) throws -> RedisConfiguration {
        var configuration = try RedisConfiguration(url: server.url())
        configuration.namespace = namespace
        configuration.breakerCooldown = .milliseconds(300)
        configuration.connectTimeout = timeout
        configuration.commandTimeout = timeout
        return configuration
    }
}

