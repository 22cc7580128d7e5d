import VignetteSupport

/// A CPU stage (decoding, processing, encoding): synchronous work on threads of its own
/// (`pthread`s started on demand up to `settings.maxConcurrent`, ended by `shutdown()`), never on Swift's
/// cooperative pool, which a blocking libvips call would starve. Highest priority first, oldest
/// first within a priority.
final class ThreadStage: QueueingStage {
    typealias Job = @Sendable () -> Void

    /// What the stage's lock guards.
    private struct State {
        var queue = StageQueue<Job>()
        var threads = 0
        /// Threads waiting on the condition.
        var idle = 0
        /// Signals sent to idle threads that no thread has woken up for yet: an idle thread already
        /// signalled is not available for the next item, which must wake another or start one.
        var wakeups = 0
        var isShutDown = false
    }

    /// The state, and the condition idle threads wait on for work.
    private let state = Locked(State())
    let settings: StageSettings

    init(settings: StageSettings) {
        self.settings = settings
    }

    /// Queues `job`; `onCancelledBeforeStart` runs instead if the item is cancelled before it starts.
    func enqueue(priority: ImageRequest.Priority, onCancelledBeforeStart: @escaping @Sendable () -> Void = {},
                 _ job: @escaping @Sendable () -> Void) -> WorkItem {
        let item = makeItem(priority: priority, onCancelledBeforeStart: onCancelledBeforeStart)
        let metrics = settings.metrics
        let (accepted, startThread) = state.withLock { state -> (Bool, Bool) in
            guard !state.isShutDown else { return (false, false) }
            state.queue.add(item, job)
            metrics?.depth.record(state.queue.count)
            if state.idle > state.wakeups {
                state.wakeups += 1
                self.state.signal()
                return (true, false)
            }
            if state.threads < settings.maxConcurrent {
                state.threads += 1
                return (true, true)
            }
            return (true, false)
        }
        if !accepted {
            item.state = .cancelled
            onCancelledBeforeStart()
        } else if startThread {
            do {
                let name = "vignette-" + name
                try WorkerThread.start { [self] in
                    ImagingRuntime.nameCurrentThread(name)
                    workerLoop()
                }
            } catch {
                threadDidNotStart()
            }
        }
        return item
    }

    /// No thread could be had: when the stage has none left to take its queue, the queued items
    /// are cancelled (their requests fail as cancelled) rather than wait for ever.
    private func threadDidNotStart() {
        let cancelled = state.withLock { state -> [WorkItem] in
            state.threads -= 1
            return state.threads == 0 ? state.queue.drain() : []
        }
        for item in cancelled { item.onCancelledBeforeStart() }
    }

    func shutdown() {
        let cancelled = state.withLock { state -> [WorkItem] in
            state.isShutDown = true
            self.state.broadcast()
            return state.queue.drain()
        }
        for item in cancelled { item.onCancelledBeforeStart() }
    }

    func withQueue<Result>(_ body: (inout StageQueue<Job>) -> Result) -> Result {
        state.withLock { body(&$0.queue) }
    }

    /// What a worker does next.
    private enum Next {
        case run(WorkItem, Job)
        case stop
    }

    private func workerLoop() {
        let metrics = settings.metrics
        while true {
            let next = state.waitUntil { state, afterWait -> Next? in
                if afterWait {
                    state.idle -= 1
                    // Whoever wakes takes a signal's place (a spurious wake-up finds the item instead).
                    if state.wakeups > 0 { state.wakeups -= 1 }
                }
                if state.isShutDown { return .stop }
                if let (item, job) = state.queue.next() {
                    metrics?.depth.record(state.queue.count)
                    metrics?.wait.recordInterval(since: item.queuedAt)
                    return .run(item, job)
                }
                state.idle += 1
                return nil
            }
            guard case .run(let item, let job) = next else { break }
            job()
            state.withLock { _ in item.state = .finished }
        }
        state.withLock { $0.threads -= 1 }
        ImagingRuntime.threadWillExit()
    }
}
