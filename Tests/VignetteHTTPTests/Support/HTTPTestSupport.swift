import Foundation
import LoopbackHTTPServer
import Testing
import Vignette
import VignetteHTTP
import TestTiming

enum Files {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: repository.appendingPathComponent("Fixtures/\(name)")))
    }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-http-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}


/// A started loopback server, stopped by `body`'s end whatever happens.
func withServer<T>(_ body: (LoopbackHTTPServer) async throws -> T) async throws -> T {
    let server = try await LoopbackHTTPServer.start()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A loader without the rate limiter (unless given), for tests. The read timeout is long: it is
/// counted on NIO's side while the response waits for its consumer, a task of Swift's cooperative
/// pool, which the CPU-bound codec tests running beside it (two threads on a 2-core machine) have
/// held for half a minute; tests of the timeout itself give their own.
func makeLoader(
    maximumResponseSize: Int = 100 << 20, connectTimeout: Duration = .seconds(5), readTimeout: Duration = .seconds(120),
    rateLimiter: RateLimiter? = nil, maximumRedirects: Int = 5
) -> HTTPDataLoader {
    HTTPDataLoader(configuration: HTTPDataLoader.Configuration(
        maximumResponseSize: maximumResponseSize, connectTimeout: connectTimeout, readTimeout: readTimeout,
        requestTimeout: .seconds(60), maximumRedirects: maximumRedirects, rateLimiter: rateLimiter))
}

extension HTTPDataLoader {
    /// Loads `url` outside any pipeline.
    func load(_ url: String, context: DataLoadingContext? = nil) async throws -> LoadedData {
        let request = ImageRequest(url: URL(string: url)!)
        return try await loadData(for: request, context: context ?? DataLoadingContext(received: { _, _ in }, progress: { _, _ in }))
    }
}

/// The `HTTPLoadingError` inside whatever `body` threw, or nil.
func httpError(_ body: () async throws -> Void) async -> HTTPLoadingError? {
    do {
        try await body()
        return nil
    } catch let error as HTTPLoadingError {
        return error
    } catch ImagePipelineError.dataLoadingFailed(let error) {
        return error as? HTTPLoadingError
    } catch {
        return nil
    }
}
