import Dispatch
import Vignette
import VignetteSupport

/// The CLI's jobs run on Dispatch threads (`BatchRunner`); the pipeline is async. This waits on
/// the calling thread for async work, which runs as a task of its own.
enum AsyncBridge {
    /// `body`'s outcome, waited for on this thread. `started` receives the task (to cancel it).
    static func wait<T: Sendable, E: Error>(
        started: (Task<Void, Never>) -> Void = { _ in }, _ body: @escaping @Sendable () async throws(E) -> T
    ) -> Result<T, E> {
        let outcome = Locked<Result<T, E>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            let result: Result<T, E>
            do throws(E) { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        started(task)
        done.wait()
        // The task set it before it signalled.
        guard let result = outcome.withLock({ $0 }) else { preconditionFailure("AsyncBridge: the task ended without a result") }
        return result
    }

    /// Waits for `body`, which cannot fail.
    static func wait(_ body: @escaping @Sendable () async -> Void) {
        let _: Result<Void, Never> = wait { () async throws(Never) in await body() }
    }
}
