
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
        var isFinished = false
        var runner: Task<ImageResponse, any Error>?
    }

    public let request: ImageRequest
    /// The task's events; iterate once.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let state: Locked<State>

    init(request: ImageRequest) {
        self.request = request
        state = Locked(State(priority: request.priority))
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
    }

    func start(_ body: @escaping @Sendable () async throws(ImagePipelineError) -> ImageResponse) {
        let runner = Task { [self] () async throws -> ImageResponse in
            let result: Result<ImageResponse, ImagePipelineError>
            do throws(ImagePipelineError) {
                result = .success(try await body())
            } catch {
                result = .failure(isCancelled ? .cancelled : error)
            }
            state.withLock { $0.isFinished = true }
            continuation.yield(.finished(result))
            continuation.finish()
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

    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Bytes loaded so far and expected in all (-1 when unknown).
    public var progress: (completed: Int64, total: Int64) { state.withLock { $0.progress } }

    func attach(_ forward: @escaping @Sendable (ImageRequest.Priority) -> Void) {
        state.withLock { $0.forwardPriority = forward }
    }

    func reportPreview(_ preview: ImageContainer) {
        // Under the lock, so that no preview follows `finished`.
        state.withLock { state in
            if !state.isFinished { continuation.yield(.preview(preview)) }
        }
    }

    func report(completed: Int64, total: Int64) {
        state.withLock { $0.progress = (completed, total) }
        continuation.yield(.progress(completed: completed, total: total))
    }
}
