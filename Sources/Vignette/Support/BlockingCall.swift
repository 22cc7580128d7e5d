import Dispatch

/// Blocking system calls made from async code (a file read, which on a pipe may wait for its
/// writer), run on a Dispatch queue and awaited, so that they never hold a thread of Swift's
/// small cooperative pool.
enum BlockingCall {
    private static let queue = DispatchQueue(label: "vignette.blocking-io", qos: .utility, attributes: .concurrent)

    /// `body`'s result, computed on a Dispatch thread.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
