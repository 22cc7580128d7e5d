#if canImport(Glibc)
import Glibc
#endif

/// A value reached only under a pthread mutex, with a condition a thread can wait on for it to
/// change: the lock a worker thread sleeps on. Like `Locked`, the mutex, the condition and the
/// state live in allocations of their own (stable addresses), and every access to the state
/// goes through `withLock` and the state is `Sendable` itself, so sharing it across threads is
/// safe (`@unchecked Sendable`).
package final class ConditionLock<State: Sendable>: @unchecked Sendable {
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

    /// Runs `body` on the state with the mutex held. `body`'s second argument waits on the
    /// condition (the mutex let go meanwhile) until `signal()` or `broadcast()` wakes it, or
    /// spuriously: callers wait in a loop that looks at the state again.
    package func withLock<Result>(_ body: (inout State, _ wait: () -> Void) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee, { pthread_cond_wait(condition, mutex) })
    }

    /// Runs `body` on the state with the mutex held.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try withLock { state, _ in try body(&state) }
    }

    /// Wakes one waiting thread.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiting thread.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
