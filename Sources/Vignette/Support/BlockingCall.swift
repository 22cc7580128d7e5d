import VignetteSupport

/// Blocking system calls made from async code (a file read, which on a pipe may wait for its
/// writer), run on the package's blocking executor and awaited, so that they never hold a thread
/// of Swift's small cooperative pool.
enum BlockingCall {
    /// `body`'s result, computed on a thread of `BlockingExecutor.shared`.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingExecutor.shared.run(body)
    }
}
