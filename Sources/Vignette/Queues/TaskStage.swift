import VignetteSupport

/// The loading stage: asynchronous (I/O-bound) work as tasks, at most `maxConcurrent` at once,
/// highest priority first, oldest first within a priority.
final class TaskStage: Sendable {
    private struct State: Sendable {
        var buckets = PriorityBuckets<WorkItem>()
        var jobs: [ObjectIdentifier: @Sendable () async -> Void] = [:]
        var running = 0
        var isShutDown = false
        var started = 0
    }

    let name: String
    let maxConcurrent: Int
    private let state = Locked(State())
    private let metrics: StageMetrics?

    init(name: String, maxConcurrent: Int, metrics: StageMetrics? = nil) {
        self.name = name
        self.maxConcurrent = max(1, maxConcurrent)
        self.metrics = metrics
    }

    var startedCount: Int { state.withLock { $0.started } }

    func enqueue(priority: ImageRequest.Priority, onCancelledBeforeStart: @escaping @Sendable () -> Void = {},
                 _ job: @escaping @Sendable () async -> Void) -> WorkItem {
        let item = WorkItem(
            priority: priority, onCancelledBeforeStart: onCancelledBeforeStart,
            cancel: { [weak self] item in self?.cancel(item) },
            setPriority: { [weak self] item, priority in self?.setPriority(item, priority) })
        let accepted = state.withLock { state -> Bool in
            guard !state.isShutDown else { return false }
            state.jobs[ObjectIdentifier(item)] = job
            state.buckets.push(item, priority: priority, generation: item.generation)
            metrics?.depth.record(state.jobs.count)
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
            var cancelled: [WorkItem] = []
            while let item = state.buckets.pop(isLive: Self.isLive) {
                item.state = .cancelled
                state.jobs[ObjectIdentifier(item)] = nil
                cancelled.append(item)
            }
            return cancelled
        }
        for item in cancelled { item.onCancelledBeforeStart() }
    }

    private static func isLive(_ item: WorkItem, _ generation: Int) -> Bool {
        item.state == .queued && item.generation == generation
    }

    private func cancel(_ item: WorkItem) {
        let removed = state.withLock { state -> Bool in
            guard item.state == .queued else { return false }
            item.state = .cancelled
            state.jobs[ObjectIdentifier(item)] = nil
            return true
        }
        if removed { item.onCancelledBeforeStart() }
    }

    private func setPriority(_ item: WorkItem, _ priority: ImageRequest.Priority) {
        state.withLock { state in
            guard item.state == .queued, item.priority != priority else { return }
            item.priority = priority
            item.generation += 1
            state.buckets.push(item, priority: priority, generation: item.generation)
        }
    }

    private func startReady() {
        let ready = state.withLock { state -> [(WorkItem, @Sendable () async -> Void)] in
            var ready: [(WorkItem, @Sendable () async -> Void)] = []
            while !state.isShutDown, state.running < maxConcurrent,
                let item = state.buckets.pop(isLive: Self.isLive),
                let job = state.jobs.removeValue(forKey: ObjectIdentifier(item))
            {
                item.state = .running
                state.running += 1
                state.started += 1
                ready.append((item, job))
                metrics?.depth.record(state.jobs.count)
                metrics?.wait.recordInterval(since: item.queuedAt)
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
