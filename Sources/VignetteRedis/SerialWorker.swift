import VignetteCodecs
import VignetteSupport

/// One thread of its own that runs jobs in the order they came: `RedisDataCache`'s writes and
/// breaker trials. Not a Dispatch queue: the blocking Redis calls must not wait for a thread of
/// Dispatch's small shared pool (nor hold one), which other blocking work in the process can fill.
final class SerialWorker: Sendable {
    private struct State: Sendable {
        var jobs: [@Sendable () -> Void] = []
        var isStopped = false
        var hasNoThread = false
    }

    private let state = Locked(State())

    /// A worker whose thread is called `name`, started at once. When no thread can be had, jobs
    /// run on the caller's thread instead (`async` then blocks for the call), so none is lost.
    init(name: String) {
        let state = state
        do {
            try WorkerThread.start {
                ImagingRuntime.nameCurrentThread(name)
                while true {
                    // The next job, or nil once stopped with none left.
                    let job = state.waitUntil { state, _ -> (@Sendable () -> Void)?? in
                        if !state.jobs.isEmpty { return .some(state.jobs.removeFirst()) }
                        return state.isStopped ? .some(nil) : nil
                    }
                    guard let job else { break }
                    job()
                }
            }
        } catch {
            state.withLock { $0.hasNoThread = true }
        }
    }

    deinit { stop() }

    /// Runs `job` after the jobs given before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        let inline = state.withLock { state -> Bool in
            if state.hasNoThread { return true }
            state.jobs.append(job)
            return false
        }
        if inline { job() } else { state.signal() }
    }

    /// Lets the thread end once the jobs given so far have run.
    func stop() {
        state.withLock { $0.isStopped = true }
        state.signal()
    }
}
