import Dispatch
import Foundation  // Thread
import VignetteCodecs
import VignetteSupport

/// One thread of its own that runs jobs in the order they came: `RedisDataCache`'s writes and
/// breaker trials. Not a Dispatch queue: the blocking Redis calls must not wait for a thread of
/// Dispatch's small shared pool (nor hold one), which other blocking work in the process can fill.
final class SerialWorker: Sendable {
    private struct State: Sendable {
        var jobs: [@Sendable () -> Void] = []
        var isStopped = false
    }

    private let state = Locked(State())
    private let wakeup = DispatchSemaphore(value: 0)

    /// A worker whose thread is called `name`, started at once.
    init(name: String) {
        let (state, wakeup) = (state, wakeup)
        let thread = Thread {
            while true {
                wakeup.wait()
                let next = state.withLock { state -> (job: (@Sendable () -> Void)?, stop: Bool) in
                    if state.jobs.isEmpty { return (nil, state.isStopped) }
                    return (state.jobs.removeFirst(), false)
                }
                if let job = next.job { job() } else if next.stop { return }
            }
        }
        thread.name = name
        thread.start()
    }

    deinit { stop() }

    /// Runs `job` after the jobs given before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        state.withLock { $0.jobs.append(job) }
        wakeup.signal()
    }

    /// Lets the thread end once the jobs given so far have run.
    func stop() {
        state.withLock { $0.isStopped = true }
        wakeup.signal()
    }
}
