import VignetteSupport

/// One request in flight: cancel it, change its priority, follow its progress and events.
public final class ImageTask: Sendable {
    /// What happens to a task, in order: progress (zero or more), previews (zero or more), then
    /// exactly one `finished`, after which the stream ends.
    public enum Event: Sendable {
        case progress(completed: Int64, total: Int64)
        case preview(ImageContainer)
        case finished(Result<ImageResponse, ImagePipelineError>)
    }

    private struct State: Sendable {
        var priority: ImageRequest.Priority
        var forwardPriority: (@Sendable (ImageRequest.Priority) -> Void)?
        var progress: (completed: Int64, total: Int64) = (0, 0)
        var isCancelled = false
        var finished: Result<ImageResponse, ImagePipelineError>?
        var runner: Task<ImageResponse, any Error>?
        var streams: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextStream = 0
    }

    /// The request the task runs.
    public let request: ImageRequest
    private let state: Locked<State>

    /// How many events a stream keeps for a slow reader; older progress and previews are dropped
    /// first, and `finished` is always delivered.
    public static let eventBufferSize = 16

    init(request: ImageRequest) {
        self.request = request
        state = Locked(State(priority: request.priority))
    }

    /// The task's events, from now on: each access makes a new stream (so several readers each
    /// get every event), buffered up to `eventBufferSize` newest events. A stream made after the
    /// task finished gives `finished` at once and ends. Nothing is buffered for nobody: events
    /// go only to streams that exist.
    public var events: AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(Self.eventBufferSize))
        let finished = state.withLock { state -> Result<ImageResponse, ImagePipelineError>? in
            if let finished = state.finished { return finished }
            state.nextStream += 1
            let id = state.nextStream
            state.streams[id] = continuation
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.streams.removeValue(forKey: id) }
            }
            return nil
        }
        if let finished {
            continuation.yield(.finished(finished))
            continuation.finish()
        }
        return stream
    }

    /// Hands `event` to every stream, under the lock, so that nothing follows `finished`. The
    /// streams are ended outside it: ending one runs its `onTermination`, which takes the lock.
    private func broadcast(_ event: Event, finishing result: Result<ImageResponse, ImagePipelineError>? = nil) {
        let ended = state.withLock { state -> [AsyncStream<Event>.Continuation] in
            guard state.finished == nil else { return [] }
            for continuation in state.streams.values { continuation.yield(event) }
            guard let result else { return [] }
            state.finished = result
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for continuation in ended { continuation.finish() }
    }

    func start(_ body: @escaping @Sendable () async throws(ImagePipelineError) -> ImageResponse) {
        let runner = Task { [self] () async throws -> ImageResponse in
            let result: Result<ImageResponse, ImagePipelineError>
            do throws(ImagePipelineError) {
                result = .success(try await body())
            } catch {
                result = .failure(isCancelled ? .cancelled : error)
            }
            broadcast(.finished(result), finishing: result)
            return try result.get()
        }
        let cancelNow = state.withLock { state -> Bool in
            state.runner = runner
            return state.isCancelled
        }
        if cancelNow { runner.cancel() }
    }

    /// The response, once the task has finished.
    public var response: ImageResponse {
        get async throws(ImagePipelineError) {
            guard let runner = state.withLock({ $0.runner }) else { throw .cancelled }
            do {
                return try await runner.value
            } catch let error as ImagePipelineError {
                throw error
            } catch {
                throw .cancelled
            }
        }
    }

    /// The image, once the task has finished.
    public var image: Image {
        get async throws(ImagePipelineError) { try await response.image }
    }

    /// The task's current priority.
    public var priority: ImageRequest.Priority { state.withLock { $0.priority } }

    /// Moves the task (and the shared work it waits for) to `priority`.
    public func setPriority(_ priority: ImageRequest.Priority) {
        let forward = state.withLock { state -> (@Sendable (ImageRequest.Priority) -> Void)? in
            guard state.priority != priority else { return nil }
            state.priority = priority
            return state.forwardPriority
        }
        forward?(priority)
    }

    /// Stops the task: it finishes promptly with `.cancelled`; shared work it alone needed stops too.
    public func cancel() {
        let runner = state.withLock { state -> Task<ImageResponse, any Error>? in
            state.isCancelled = true
            return state.runner
        }
        runner?.cancel()
    }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Bytes loaded so far and expected in all (-1 when unknown).
    public var progress: (completed: Int64, total: Int64) { state.withLock { $0.progress } }

    func attach(_ forward: @escaping @Sendable (ImageRequest.Priority) -> Void) {
        state.withLock { $0.forwardPriority = forward }
    }

    func reportPreview(_ preview: ImageContainer) {
        broadcast(.preview(preview))
    }

    func report(completed: Int64, total: Int64) {
        state.withLock { $0.progress = (completed, total) }
        broadcast(.progress(completed: completed, total: total))
    }
}
