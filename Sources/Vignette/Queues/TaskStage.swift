import VignetteSupport

/// The loading stage: asynchronous (I/O-bound) work as tasks, at most `settings.maxConcurrent` at once,
/// highest priority first, oldest first within a priority.
final class TaskStage: QueueingStage {
    typealias Job = @Sendable () async -> Void

    private struct State: Sendable {
        var queue = StageQueue<Job>()
        var running = 0
        var isShutDown = false
    }

    let settings: StageSettings
    private let state = Locked(State())

    init(settings: StageSettings) {
        self.settings = settings
    }

    func enqueue(priority: ImageRequest.Priority, onCancelledBeforeStart: @escaping @Sendable () -> Void = {},
                 _ job: @escaping @Sendable () async -> Void) -> WorkItem {
        let item = makeItem(priority: priority, onCancelledBeforeStart: onCancelledBeforeStart)
        let accepted = state.withLock { state -> Bool in
            guard !state.isShutDown else { return false }
            state.queue.add(item, job)
            settings.metrics?.depth.record(state.queue.count)
            return true
        }
        if accepted {
            startReady()
        } else {
            item.state = .cancelled
            onCancelledBeforeStart()
        }
        return item
    }

    func shutdown() {
        let cancelled = state.withLock { state -> [WorkItem] in
            state.isShutDown = true
            return state.queue.drain()
        }
        for item in cancelled { item.onCancelledBeforeStart() }
    }

    func withQueue<Result>(_ body: (inout StageQueue<Job>) -> Result) -> Result {
        state.withLock { body(&$0.queue) }
    }

    private func startReady() {
        let ready = state.withLock { state -> [(WorkItem, @Sendable () async -> Void)] in
            var ready: [(WorkItem, @Sendable () async -> Void)] = []
            while !state.isShutDown, state.running < settings.maxConcurrent, let (item, job) = state.queue.next() {
                state.running += 1
                ready.append((item, job))
                settings.metrics?.depth.record(state.queue.count)
                settings.metrics?.wait.recordInterval(since: item.queuedAt)
            }
            return ready
        }
        for (item, job) in ready {
            Task {
                await job()
                self.state.withLock { state in
                    item.state = .finished
                    state.running -= 1
                }
                self.startReady()
            }
        }
    }
}
