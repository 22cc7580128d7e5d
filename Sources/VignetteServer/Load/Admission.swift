import Vignette
import VignetteSupport

/// At most `maxRunning` requests in processing and at most `maxWaiting` waiting for a turn; a
/// request that finds both full is refused at once (the server answers 503 with `Retry-After`)
/// instead of queueing without end. Waiters get their turn oldest first; a waiter whose task is
/// cancelled (its client went away) leaves the queue.
package final class Admission: Sendable {
    /// Why a request was not admitted.
    package enum Refusal: Error, Sendable, Equatable {
        /// Every slot is taken and the wait queue is full.
        case overloaded
        /// The request's task was cancelled while it waited.
        case cancelled
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
    }

    /// Requests processed at once.
    package let maxRunning: Int
    /// Requests that may wait for a slot.
    package let maxWaiting: Int
    private let state = Locked(State())

    /// An admission of `maxRunning` (at least 1) at once and `maxWaiting` (at least 0) waiting.
    package init(maxRunning: Int, maxWaiting: Int) {
        self.maxRunning = max(1, maxRunning)
        self.maxWaiting = max(0, maxWaiting)
    }

    /// Requests in processing now.
    package var running: Int { state.withLock { $0.running } }
    /// Requests waiting for a slot now.
    package var waiting: Int { state.withLock { $0.waiting.count } }
    /// Whether a request arriving now would be refused: every slot taken and the queue full.
    package var isSaturated: Bool { state.withLock { $0.running >= maxRunning && $0.waiting.count >= maxWaiting } }

    /// Runs `body` once a slot is free; throws `Refusal.overloaded` at once when the queue is
    /// full, `Refusal.cancelled` when the task is cancelled while waiting.
    package func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async throws {
        enum Decision { case run, wait(UInt64), refuse }
        let decision = state.withLock { state -> Decision in
            if state.running < maxRunning {
                state.running += 1
                return .run
            }
            guard state.waiting.count < maxWaiting else { return .refuse }
            state.nextID += 1
            return .wait(state.nextID)
        }
        switch decision {
        case .run: return
        case .refuse: throw Refusal.overloaded
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLock { state -> Bool in
                        if Task.isCancelled { return true }
                        state.waiting.append(Waiter(id: id, continuation: continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: Refusal.cancelled) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> Waiter? in
                    guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiting.remove(at: index)
                }
                waiter?.continuation.resume(throwing: Refusal.cancelled)
            }
        }
    }

    /// Frees a slot: hands it to the oldest waiter, if any (its `running` count carries over).
    private func leave() {
        let next = state.withLock { state -> Waiter? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.continuation.resume()
    }
}
