import VignetteCodecs
import VignetteSupport

/// Whether the client of one connection is still there: set once when it closes its side (a
/// FIN, seen as NIO's `ChannelEvent.inputClosed`) or the connection goes away, by
/// `ClientDisconnectHandler`. A request's work waits on it beside the work, so a client that
/// leaves stops the work while a client that stays keeps its connection for the next request.
package final class ClientDisconnect: Sendable {
    private struct State {
        var gone = false
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Whether the client has gone.
    package var isGone: Bool { state.withLock { $0.gone } }

    /// Marks the client gone and wakes every `waitUntilGone()`.
    package func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard !state.gone else { return [] }
            state.gone = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the client has gone; throws `CancellationError` when the task is cancelled
    /// first (the request finished, or timed out).
    package func waitUntilGone() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Now { case gone, cancelled, wait }
                let now = state.withLock { state -> Now in
                    if state.gone { return .gone }
                    if Task.isCancelled { return .cancelled }
                    state.waiters[id] = continuation
                    return .wait
                }
                switch now {
                case .gone: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
