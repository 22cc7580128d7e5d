#if canImport(Glibc)
import Glibc
#endif

/// The package's one lock: a value reached only under a pthread mutex, with a condition a thread
/// can wait on for it to change (a worker thread sleeping until there is work).
///
/// It is `@unchecked Sendable` because every access to the state goes through `withLock`, which
/// holds the mutex for the whole of its body, and the state is `Sendable` itself, so nothing that
/// leaves the body can be shared unsafely. A pthread mutex rather than `Synchronization.Mutex`:
/// it is as fast uncontended, ThreadSanitizer understands it (it reports false races on `Mutex`'s
/// futex on Linux), and it needs no macOS 15. The mutex, the condition and the state live in
/// allocations of their own (stable addresses, unlike a stored property's), so no dynamic
/// exclusivity check runs.
package final class Locked<State: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private let state: UnsafeMutablePointer<State>

    package init(_ initial: State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
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

    /// Runs `attempt` on the state with the mutex held until it gives a result, waiting on the
    /// condition between attempts (`pthread_cond_wait`, the mutex let go meanwhile) until
    /// `signal()` or `broadcast()` wakes it, or spuriously; `afterWait` says that an attempt follows
    /// a wait. Each attempt is an access of its own to the state, so it sees what other threads
    /// changed during the wait: an `inout` access held across the wait would let the compiler keep
    /// what it had read before (in an optimised build a worker then slept on, its queue not empty).
    package func waitUntil<Result>(_ attempt: (inout State, _ afterWait: Bool) throws -> Result?) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var afterWait = false
        while true {
            if let result = try attempt(&state.pointee, afterWait) { return result }
            pthread_cond_wait(condition, mutex)
            afterWait = true
        }
    }

    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// Whether some thread holds the mutex, for tests (never blocks).
    package func isLocked() -> Bool {
        guard pthread_mutex_trylock(mutex) == 0 else { return true }
        pthread_mutex_unlock(mutex)
        return false
    }
}
