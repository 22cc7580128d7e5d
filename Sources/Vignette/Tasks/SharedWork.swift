import Tracing
import VignetteSupport

/// A node of the pipeline's task graph: one piece of work (load, decode, one processor) shared by
/// every request that needs it.
///
/// Subscribers wait for the value with their own priority; the work runs at the highest of them
/// and follows changes (`onPriorityChange` listeners move queued work and dependency
/// subscriptions). When the last subscriber leaves, the work's task is cancelled, which cancels its
/// own subscriptions in turn: cancellation runs down the graph.
final class SharedWork<Value: Sendable>: Sendable {
    typealias Priority = ImageRequest.Priority

    private struct Subscriber: Sendable {
        var priority: Priority
        var continuation: CheckedContinuation<Value, any Error>?
        var onProgress: (@Sendable (Int64, Int64) -> Void)?
        var onPreview: (@Sendable (Value) -> Void)?
    }

    private struct State: Sendable {
        var subscribers: [Int: Subscriber] = [:]
        var cancelledEarly: Set<Int> = []
        var nextID = 0
        var result: Result<Value, any Error>?
        var priority: Priority
        var listeners: [Int: @Sendable (Priority) -> Void] = [:]
        var task: Task<Void, Never>?
        var isCancelled = false
        /// Spans of requests that joined this work, ended when it ends.
        var joined: [any Span] = []
    }

    private let state: Locked<State>
    private let onEnd: @Sendable () -> Void
    /// Where the work's spans go: under the request that started it; nil when untraced.
    let trace: PipelineTrace?

    /// `onEnd` runs once when the work finishes or is cancelled (the graph forgets the node).
    init(priority: Priority, trace: PipelineTrace? = nil, onEnd: @escaping @Sendable () -> Void) {
        state = Locked(State(priority: priority))
        self.trace = trace
        self.onEnd = onEnd
    }

    /// Another request joined this work under `trace`: a `vignette.coalesced` span there, linked
    /// to the request that started the work, lasting until the work ends.
    func join(from trace: PipelineTrace, kind: String) {
        let span = trace.start("vignette.coalesced")
        span.attributes["vignette.coalesced.work"] = kind
        if let started = self.trace { span.addLink(SpanLink(context: started.context, attributes: [:])) }
        let ended = state.withLock { state -> Result<Value, any Error>?? in
            guard state.result == nil, !state.isCancelled else { return .some(state.result) }
            state.joined.append(span)
            return .none
        }
        if let ended { Self.end(span, with: ended) }
    }

    private static func end(_ span: any Span, with result: Result<Value, any Error>?) {
        if case .failure(let error) = result ?? .failure(CancellationError()) { span.record(error) }
        span.end()
    }

    /// Starts `body`; call once, right after creating the node and subscribing its first waiter.
    func start(_ body: @escaping @Sendable (SharedWork<Value>) async throws -> Value) {
        let task = Task {
            let result: Result<Value, any Error>
            do { result = .success(try await body(self)) } catch { result = .failure(error) }
            self.finish(result)
        }
        // The node is visible in the graph before its task exists: a last subscriber that left in
        // between found no task to cancel, so the cancellation is carried out here.
        let cancelledMeanwhile = state.withLock { state -> Bool in
            state.task = task
            return state.isCancelled
        }
        if cancelledMeanwhile { task.cancel() }
    }

    var priority: Priority { state.withLock { $0.priority } }
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }
    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// A token for a subscription made with `subscribe(id:)`.
    func makeSubscriberID() -> Int {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    /// Waits for the value as subscriber `id` at `priority`. Leaving (the caller's task being
    /// cancelled) returns `CancellationError` at once, whatever the work is doing.
    func value(
        id: Int, priority: Priority, onProgress: (@Sendable (Int64, Int64) -> Void)? = nil,
        onPreview: (@Sendable (Value) -> Void)? = nil
    ) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let immediate = state.withLock { state -> Result<Value, any Error>? in
                    if let result = state.result { return result }
                    if state.cancelledEarly.remove(id) != nil { return .failure(CancellationError()) }
                    state.subscribers[id] = Subscriber(
                        priority: priority, continuation: continuation, onProgress: onProgress, onPreview: onPreview)
                    return nil
                }
                if let immediate {
                    continuation.resume(with: immediate)
                } else {
                    updatePriority()
                }
            }
        } onCancel: {
            unsubscribe(id)
        }
    }

    /// Subscriber `id` leaves; the work is cancelled when nobody is left.
    func unsubscribe(_ id: Int) {
        let (continuation, cancelTask) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, Task<Void, Never>?) in
            guard let subscriber = state.subscribers.removeValue(forKey: id) else {
                if state.result == nil { state.cancelledEarly.insert(id) }
                return (nil, nil)
            }
            if state.subscribers.isEmpty, state.result == nil, !state.isCancelled {
                state.isCancelled = true
                return (subscriber.continuation, state.task)
            }
            return (subscriber.continuation, nil)
        }
        continuation?.resume(throwing: CancellationError())
        if let cancelTask {
            cancelTask.cancel()
        } else {
            updatePriority()
        }
    }

    /// Changes subscriber `id`'s priority; the work follows the highest.
    func setPriority(_ priority: Priority, for id: Int) {
        let changed = state.withLock { state -> Bool in
            guard state.subscribers[id] != nil else { return false }
            state.subscribers[id]?.priority = priority
            return true
        }
        if changed { updatePriority() }
    }

    /// Registers `listener` for changes of the work's priority; returns a token for `removeListener`.
    func addListener(_ listener: @escaping @Sendable (Priority) -> Void) -> Int {
        state.withLock { state in
            state.nextID += 1
            state.listeners[state.nextID] = listener
            return state.nextID
        }
    }

    func removeListener(_ token: Int) {
        _ = state.withLock { $0.listeners.removeValue(forKey: token) }
    }

    /// Ends the work for everyone with `error` (the pipeline was invalidated).
    func abort(with error: any Error) {
        let (waiting, task, joined) = state.withLock { state -> ([CheckedContinuation<Value, any Error>], Task<Void, Never>?, [any Span]) in
            guard state.result == nil else { return ([], nil, []) }
            state.isCancelled = true
            let waiting = state.subscribers.values.compactMap(\.continuation)
            state.subscribers.removeAll()
            defer { state.joined.removeAll() }
            return (waiting, state.task, state.joined)
        }
        task?.cancel()
        for span in joined { Self.end(span, with: .failure(error)) }
        for continuation in waiting { continuation.resume(throwing: error) }
    }

    /// Tells every subscriber how much data has arrived.
    func reportProgress(completed: Int64, total: Int64) {
        let handlers = state.withLock { $0.subscribers.values.compactMap(\.onProgress) }
        for handler in handlers { handler(completed, total) }
    }

    /// Whether a subscriber asked for previews (partial values before the final one).
    var wantsPreviews: Bool { state.withLock { $0.subscribers.values.contains { $0.onPreview != nil } } }

    /// Hands every subscriber that asked for previews a partial value: the bytes so far for a
    /// load, a preview image for an image. Nothing is delivered once the work has finished.
    func publishPreview(_ value: Value) {
        let handlers = state.withLock { state in
            state.result == nil ? state.subscribers.values.compactMap(\.onPreview) : []
        }
        for handler in handlers { handler(value) }
    }

    private func updatePriority() {
        let (newPriority, listeners) = state.withLock { state -> (Priority?, [@Sendable (Priority) -> Void]) in
            guard let highest = state.subscribers.values.map(\.priority).max(), highest != state.priority else { return (nil, []) }
            state.priority = highest
            return (highest, Array(state.listeners.values))
        }
        if let newPriority {
            for listener in listeners { listener(newPriority) }
        }
    }

    private func finish(_ result: Result<Value, any Error>) {
        let (waiting, joined) = state.withLock { state -> ([CheckedContinuation<Value, any Error>], [any Span]) in
            state.result = result
            let waiting = state.subscribers.values.compactMap(\.continuation)
            state.subscribers.removeAll()
            state.listeners.removeAll()
            defer { state.joined.removeAll() }
            return (waiting, state.joined)
        }
        onEnd()
        for span in joined { Self.end(span, with: result) }
        for continuation in waiting { continuation.resume(with: result) }
    }
}

extension SharedWork {
    /// Subscribes to `dependency` from inside this work's body, at this work's priority and
    /// following its changes; leaves it if this work is cancelled.
    func value<Input: Sendable>(
        of dependency: SharedWork<Input>, onProgress: (@Sendable (Int64, Int64) -> Void)? = nil,
        onPreview: (@Sendable (Input) -> Void)? = nil
    ) async throws -> Input {
        let id = dependency.makeSubscriberID()
        let token = addListener { [weak dependency] priority in dependency?.setPriority(priority, for: id) }
        defer { removeListener(token) }
        return try await dependency.value(id: id, priority: priority, onProgress: onProgress, onPreview: onPreview)
    }

    /// Runs `job` on a CPU stage at this work's priority (following its changes). If this work is
    /// cancelled while the job waits in the queue, the job never runs.
    func run<Output: Sendable>(on stage: ThreadStage, _ job: @escaping @Sendable () throws -> Output) async throws -> Output {
        try await run(on: stage, span: nil) { _ in try job() }
    }

    /// Runs `job` on a CPU stage like `run(on:_:)`; with a trace, its wait in the queue and its
    /// run are spans (the run's named `span`), and `job` gets the run's span for its attributes.
    func run<Output: Sendable>(
        on stage: ThreadStage, span name: String?, _ job: @escaping @Sendable ((any Span)?) throws -> Output
    ) async throws -> Output {
        let spans = JobSpans(trace, stage: stage.name, name: name)
        return try await scheduled(spans) { priority, box, cancelled, continuation in
            stage.enqueue(priority: priority, onCancelledBeforeStart: cancelled) {
                continuation.resume(with: Result { try JobSpans.run(spans, job) })
            }
        }
    }

    /// Runs `job` on a CPU stage like `run(on:span:_:)`, handing it an `ImagingCancellation` that
    /// is cancelled when this work is, so a libvips computation already running stops at its next
    /// tile instead of running to its end for nobody.
    func run<Output: Sendable>(
        on stage: ThreadStage, span name: String?, _ job: @escaping @Sendable (ImagingCancellation, (any Span)?) throws -> Output
    ) async throws -> Output {
        let cancellation = ImagingCancellation()
        let spans = JobSpans(trace, stage: stage.name, name: name)
        return try await scheduled(spans) { priority, box, cancelled, continuation in
            box.setRunning(cancellation)
            return stage.enqueue(priority: priority, onCancelledBeforeStart: cancelled) {
                continuation.resume(with: Result { try JobSpans.run(spans) { span in try job(cancellation, span) } })
            }
        }
    }

    /// Runs async `job` on the loading stage at this work's priority, traced like
    /// `run(on:span:_:)`; cancelling this work removes the queued item or cancels the running job.
    func run<Output: Sendable>(
        on stage: TaskStage, span name: String?, _ job: @escaping @Sendable ((any Span)?) async throws -> Output
    ) async throws -> Output {
        let spans = JobSpans(trace, stage: stage.name, name: name)
        return try await scheduled(spans) { priority, box, cancelled, continuation in
            stage.enqueue(priority: priority, onCancelledBeforeStart: cancelled) {
                let inner = Task { try await JobSpans.run(spans, job) }
                box.setRunning(inner)
                continuation.resume(with: await inner.result)
            }
        }
    }

    /// Queues an item made by `enqueue` at this work's priority, moves it when the priority
    /// changes, and cancels it when this work is cancelled; returns what the item resumes with.
    private func scheduled<Output: Sendable>(
        _ spans: JobSpans?,
        _ enqueue: (Priority, WorkItemBox, _ cancelled: @escaping @Sendable () -> Void, CheckedContinuation<Output, any Error>) -> WorkItem
    ) async throws -> Output {
        if Task.isCancelled {
            spans?.cancelledBeforeStart()
            throw CancellationError()
        }
        let box = WorkItemBox()
        defer { if let token = box.token { removeListener(token) } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Output, any Error>) in
                // What runs instead of the job when its item is cancelled before it starts.
                let cancelled: @Sendable () -> Void = {
                    spans?.cancelledBeforeStart()
                    continuation.resume(throwing: CancellationError())
                }
                let item = enqueue(priority, box, cancelled, continuation)
                box.set(item, token: addListener { [weak item] priority in item?.setPriority(priority) })
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// Holds a queued item for the cancellation handler, which may run before the item exists.
final class WorkItemBox: Sendable {
    private let state = Locked<(item: WorkItem?, token: Int?, cancelled: Bool)>((nil, nil, false))
    private let running = Locked<(any CancellableTask)?>(nil)

    /// The job has started as `task`: cancelling now cancels it.
    func setRunning(_ task: some CancellableTask) {
        running.withLock { $0 = task }
        if state.withLock({ $0.cancelled }) { task.cancel() }
    }

    func set(_ item: WorkItem, token: Int) {
        let cancelNow = state.withLock { state -> Bool in
            state.item = item
            state.token = token
            return state.cancelled
        }
        if cancelNow { item.cancel() }
    }

    var token: Int? { state.withLock { $0.token } }

    func cancel() {
        let item = state.withLock { state -> WorkItem? in
            state.cancelled = true
            return state.item
        }
        item?.cancel()
        running.withLock { $0 }?.cancel()
    }
}

/// A task that can be cancelled, whatever its result type.
protocol CancellableTask: Sendable {
    func cancel()
}

extension Task: CancellableTask {}

extension ImagingCancellation: CancellableTask {}
