#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that is only reached while holding a pthread mutex.
///
/// It is `@unchecked Sendable` because every access to `state` goes through `withLock`, which
/// holds the mutex for the whole of `body`, and `state` is `Sendable` itself, so nothing that
/// leaves `body` can be shared unsafely. A pthread mutex rather than `Synchronization.Mutex`:
/// it is as fast uncontended, ThreadSanitizer understands it (it reports false races on
/// `Mutex`'s futex on Linux), and it needs no macOS 15. Both the mutex and the state live in
/// their own allocations, reached through pointers, so no dynamic exclusivity check runs.
package final class Locked<State: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<State>

    package init(_ initial: State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` on the state with the mutex held.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// Whether some thread holds the mutex, for tests (never blocks).
    package func isLocked() -> Bool {
        guard pthread_mutex_trylock(mutex) == 0 else { return true }
        pthread_mutex_unlock(mutex)
        return false
    }
}
