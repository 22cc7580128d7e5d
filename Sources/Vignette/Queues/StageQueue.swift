/// The queue of a stage (`TaskStage`, `ThreadStage`), guarded by the stage's lock: each waiting
/// item with its job, taken highest priority first, oldest first within a priority
/// (`PriorityBuckets`). `Job` is the stage's kind of closure.
struct StageQueue<Job> {
    private var buckets = PriorityBuckets<WorkItem>()
    private var jobs: [ObjectIdentifier: Job] = [:]
    /// How many items have been taken to run.
    private(set) var started = 0

    /// How many items wait.
    var count: Int { jobs.count }

    mutating func add(_ item: WorkItem, _ job: Job) {
        jobs[ObjectIdentifier(item)] = job
        buckets.push(item, priority: item.priority, generation: item.generation)
    }

    /// The next item and its job, marked running.
    mutating func next() -> (WorkItem, Job)? {
        while let item = buckets.pop(isLive: Self.isLive) {
            guard let job = jobs.removeValue(forKey: ObjectIdentifier(item)) else { continue }
            item.state = .running
            started += 1
            return (item, job)
        }
        return nil
    }

    /// Takes `item` out if it has not started, marked cancelled; whether it was waiting.
    mutating func remove(_ item: WorkItem) -> Bool {
        guard item.state == .queued else { return false }
        item.state = .cancelled
        jobs[ObjectIdentifier(item)] = nil
        return true
    }

    /// Moves a waiting item to `priority`'s place in line (its old entry is skipped when reached).
    mutating func reprioritize(_ item: WorkItem, _ priority: ImageRequest.Priority) {
        guard item.state == .queued, item.priority != priority else { return }
        item.priority = priority
        item.generation += 1
        buckets.push(item, priority: priority, generation: item.generation)
    }

    /// Every waiting item, taken out and marked cancelled.
    mutating func drain() -> [WorkItem] {
        var cancelled: [WorkItem] = []
        while let item = buckets.pop(isLive: Self.isLive) {
            item.state = .cancelled
            jobs[ObjectIdentifier(item)] = nil
            cancelled.append(item)
        }
        return cancelled
    }

    private static func isLive(_ item: WorkItem, _ generation: Int) -> Bool {
        item.state == .queued && item.generation == generation
    }
}

extension StageQueue: Sendable where Job: Sendable {}
