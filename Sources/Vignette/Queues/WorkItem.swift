/// One piece of work waiting in (or taken from) a stage. Its mutable state is guarded by the
/// owning stage's lock.
final class WorkItem: @unchecked Sendable {
    enum State { case queued, running, finished, cancelled }

    var priority: ImageRequest.Priority
    var generation = 0
    var state = State.queued
    /// When the item was queued, for the stage's wait timer.
    let queuedAt = ContinuousClock.now
    let onCancelledBeforeStart: @Sendable () -> Void
    private let stageCancel: @Sendable (WorkItem) -> Void
    private let stageSetPriority: @Sendable (WorkItem, ImageRequest.Priority) -> Void

    init(priority: ImageRequest.Priority, onCancelledBeforeStart: @escaping @Sendable () -> Void,
         cancel: @escaping @Sendable (WorkItem) -> Void,
         setPriority: @escaping @Sendable (WorkItem, ImageRequest.Priority) -> Void) {
        self.priority = priority
        self.onCancelledBeforeStart = onCancelledBeforeStart
        stageCancel = cancel
        stageSetPriority = setPriority
    }

    /// Removes the item if it has not started (calling `onCancelledBeforeStart`); work that has
    /// started runs to its end.
    func cancel() { stageCancel(self) }

    /// Moves a queued item to `priority`'s place in line.
    func setPriority(_ priority: ImageRequest.Priority) { stageSetPriority(self, priority) }
}
