/// What every stage is given: its name (in spans and thread names), how many items it runs at
/// once (at least one), and where it records its queue depth and wait.
struct StageSettings: Sendable {
    let name: String
    let maxConcurrent: Int
    let metrics: StageMetrics?

    init(name: String, maxConcurrent: Int, metrics: StageMetrics?) {
        self.name = name
        self.maxConcurrent = max(1, maxConcurrent)
        self.metrics = metrics
    }
}

/// A stage (`TaskStage`, `ThreadStage`) that keeps its waiting items in a `StageQueue` behind its lock.
protocol QueueingStage: AnyObject, Sendable {
    associatedtype Job
    /// The name, concurrency and metrics it was made with.
    var settings: StageSettings { get }
    init(settings: StageSettings)
    /// Runs `body` on the queue under the stage's lock.
    func withQueue<Result>(_ body: (inout StageQueue<Job>) -> Result) -> Result
}

extension QueueingStage {
    /// A stage named `name` running at most `maxConcurrent` items at once (at least one).
    init(name: String, maxConcurrent: Int, metrics: StageMetrics? = nil) {
        self.init(settings: StageSettings(name: name, maxConcurrent: maxConcurrent, metrics: metrics))
    }

    /// The stage's name.
    var name: String { settings.name }
    /// How many items have started so far (a seam for tests of ordering).
    var startedCount: Int { withQueue { $0.started } }
    /// How many items wait to start.
    var queuedCount: Int { withQueue { $0.count } }

    /// A new item whose `cancel()` takes it out of this stage's queue (then calls
    /// `onCancelledBeforeStart`) and whose `setPriority(_:)` moves it there.
    func makeItem(priority: ImageRequest.Priority, onCancelledBeforeStart: @escaping @Sendable () -> Void) -> WorkItem {
        WorkItem(
            priority: priority, onCancelledBeforeStart: onCancelledBeforeStart,
            cancel: { [weak self] item in
                if self?.withQueue({ $0.remove(item) }) == true { item.onCancelledBeforeStart() }
            },
            setPriority: { [weak self] item, priority in self?.withQueue { $0.reprioritize(item, priority) } })
    }
}
