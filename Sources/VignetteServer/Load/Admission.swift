import Vignette
import VignetteSupport

/// Admits requests by the time they are expected to wait, not by a fixed count.
///
/// At most `slots` requests run at once. A request that finds every slot taken joins the queue
/// when its expected start, its place in the queue × the recent service time ÷ the slots, is
/// within `maxQueueWait`; otherwise it is refused at once (the server answers 503 with
/// `Retry-After`), since it would not be served in time. A burst of cheap requests is thus queued
/// whole, and a burst of expensive ones is refused beyond what the slots can do in time.
///
/// The service time is how long a request holds its slot: the lower quartile of the 31 most recent
/// ones, a deliberately hopeful figure, so that slow requests (the first ones of a cold process
/// while a burst's connections are still being accepted, one huge source) do not make a queue of
/// cheap work look as if it could not be served: a request is refused at once only when even
/// that figure says it would not start in time. A queue taken on too hopefully is corrected by
/// the rule below, on the real clock, never by a refusal on a guess. Before any request has finished nothing
/// is known of it, and requests are queued up to `maxWaiting`. A request already queued is refused
/// only when its time has really run out: when, even if it took a slot now, it would not finish
/// within `timeout` of its arrival (then it is refused rather than left to time out), never on an
/// estimate of the queue ahead of it. `maxWaiting` bounds the queue whatever the estimate, as a
/// memory bound.
///
/// Waiters get their turn oldest first; a waiter whose task is cancelled (its client went away, or
/// its time ran out) leaves the queue.
package final class Admission: Sendable {
    /// Why a request was not admitted: 503 either way.
    package enum Refusal: Error, Sendable, Equatable {
        /// It would not be served in time, or the queue is at `maxWaiting`: try again after
        /// `retryAfter` seconds (when the queue is expected to have drained enough).
        case overloaded(retryAfter: Int)
        /// The request's task was cancelled while it waited.
        case cancelled
    }

    /// The admission now, for `/ready` and `/metrics`.
    package struct Snapshot: Sendable, Equatable {
        /// Requests holding a slot.
        package var running: Int
        /// Requests waiting for one.
        package var waiting: Int
        /// How long a request arriving now would wait for a slot (zero while one is free).
        package var expectedWait: Duration
        /// How long a request holds its slot, recently; nil before any has finished.
        package var serviceTime: Duration?
        /// Whether a request arriving now would be refused.
        package var refusesNow: Bool
    }

    private struct Waiter {
        let id: UInt64
        let arrived: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// When each running request took its slot, by ticket.
        var running: [UInt64: ContinuousClock.Instant] = [:]
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
        /// The most recent slot-holding times, in seconds, oldest first (at most `recentCount`).
        var recent: [Double] = []
        /// Their lower quartile (`lowerQuartile`); nil before the first.
        var serviceSeconds: Double?
    }

    /// Requests processed at once.
    package let slots: Int
    /// The longest expected wait for a slot with which a request is still queued.
    package let maxQueueWait: Duration
    /// The time a request has from its arrival to its answer: waiters that would not be served
    /// within it are refused.
    package let timeout: Duration
    /// Requests that may wait whatever their expected wait.
    package let maxWaiting: Int
    /// How many recent slot-holding times the service time is taken from.
    static let recentCount = 31

    /// The lower quartile of `times`; 0 for none.
    static func lowerQuartile(_ times: [Double]) -> Double {
        let sorted = times.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 4]
    }
    private let onRefusal: @Sendable () -> Void
    private let state = Locked(State())

    /// An admission of `slots` (at least 1) at once, queueing requests expected to start within
    /// `maxQueueWait`, at most `maxWaiting` of them; `onRefusal` is called for each request refused.
    package init(
        slots: Int, maxQueueWait: Duration, timeout: Duration, maxWaiting: Int, onRefusal: @escaping @Sendable () -> Void = {}
    ) {
        self.slots = max(1, slots)
        self.maxQueueWait = max(.zero, maxQueueWait)
        self.timeout = timeout
        self.maxWaiting = max(0, maxWaiting)
        self.onRefusal = onRefusal
    }

    /// Requests in processing now.
    package var running: Int { state.withLock { $0.running.count } }
    /// Requests waiting for a slot now.
    package var waiting: Int { state.withLock { $0.waiting.count } }

    /// The admission now.
    package var snapshot: Snapshot {
        state.withLock { state in
            let wait = state.running.count < slots ? 0 : expectedStart(position: state.waiting.count + 1, state)
            return Snapshot(
                running: state.running.count, waiting: state.waiting.count, expectedWait: .seconds(wait),
                serviceTime: state.serviceSeconds.map { .seconds($0) }, refusesNow: refusal(state) != nil)
        }
    }

    /// Runs `body` once it has a slot; throws `Refusal.overloaded` at once when it would not get
    /// one in time, `Refusal.cancelled` when the task is cancelled while waiting.
    package func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let ticket = try await enter()
        defer { leave(ticket) }
        return try await body()
    }

    // MARK: - Private

    /// Seconds from now until a request at `position` (1 for the first waiter) is expected to start.
    private func expectedStart(position: Int, _ state: State) -> Double {
        Double(position) * (state.serviceSeconds ?? 0) / Double(slots)
    }

    /// The refusal a request arriving now gets; nil when it is run or queued.
    private func refusal(_ state: State) -> Refusal? {
        guard state.running.count >= slots else { return nil }
        let start = expectedStart(position: state.waiting.count + 1, state)
        guard state.waiting.count >= maxWaiting || start > maxQueueWait.seconds else { return nil }
        return .overloaded(retryAfter: retryAfter(expectedStart: start))
    }

    /// Whole seconds (at least 1) until a request expected to start after `start` seconds would be
    /// queued again.
    private func retryAfter(expectedStart start: Double) -> Int {
        let excess = (start - maxQueueWait.seconds).rounded(.up)
        return excess.isFinite ? max(1, Int(min(excess, 86_400))) : 1
    }

    /// A ticket once the request has a slot.
    private func enter() async throws -> UInt64 {
        enum Decision { case run(UInt64), wait(UInt64), refuse(Refusal) }
        let now = ContinuousClock.now
        let decision = state.withLock { state -> Decision in
            state.nextID += 1
            if state.running.count < slots {
                state.running[state.nextID] = now
                return .run(state.nextID)
            }
            if let refusal = refusal(state) { return .refuse(refusal) }
            return .wait(state.nextID)
        }
        switch decision {
        case .run(let ticket): return ticket
        case .refuse(let refusal):
            onRefusal()
            throw refusal
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLock { state -> Bool in
                        if Task.isCancelled { return true }
                        state.waiting.append(Waiter(id: id, arrived: now, continuation: continuation))
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
            return id
        }
    }

    /// Frees `ticket`'s slot: its holding time goes into the service time, the oldest waiter (if
    /// any) takes the slot, and the waiters that could no longer finish in time are refused.
    private func leave(_ ticket: UInt64) {
        let now = ContinuousClock.now
        let (next, refused) = state.withLock { state -> (Waiter?, [(Waiter, Refusal)]) in
            if let started = state.running.removeValue(forKey: ticket) {
                state.recent.append((now - started).seconds)
                if state.recent.count > Self.recentCount { state.recent.removeFirst() }
                state.serviceSeconds = Self.lowerQuartile(state.recent)
            }
            var next: Waiter?
            if !state.waiting.isEmpty {
                let waiter = state.waiting.removeFirst()
                state.running[waiter.id] = now
                next = waiter
            }
            // Those whose time has run out even if they took a slot now, newest first.
            var refused: [(Waiter, Refusal)] = []
            let service = Duration.seconds(state.serviceSeconds ?? 0)
            for index in state.waiting.indices.reversed() where now + service > state.waiting[index].arrived + timeout {
                let start = expectedStart(position: index + 1, state)
                refused.append((state.waiting.remove(at: index), .overloaded(retryAfter: retryAfter(expectedStart: start))))
            }
            return (next, refused)
        }
        next?.continuation.resume()
        for (waiter, refusal) in refused {
            onRefusal()
            waiter.continuation.resume(throwing: refusal)
        }
    }
}

extension Admission.Refusal: ImageFailureConvertible {
    /// 503: "overloaded, retry later", or the library's answer to stopped work when cancelled.
    package var imageFailure: ImageFailure {
        switch self {
        case .overloaded: ImageFailure(.serviceUnavailable, reason: "overloaded, retry later")
        case .cancelled: .stopped
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
