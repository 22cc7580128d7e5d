import VignetteCodecs
import VignetteSupport

/// Stops calls to a service that keeps failing, instead of paying its timeout on every call.
///
/// Closed: calls go ahead; `failureThreshold` failures in a row open it. Open: calls are skipped
/// until `cooldown` has passed; then it is half-open: one call is the trial (the others are still
/// skipped), and its success closes the breaker, its failure opens it for another `cooldown`.
final class CircuitBreaker: Sendable {
    /// Where the breaker is.
    enum Phase: Sendable, Equatable {
        case closed(failures: Int)
        case open(until: ContinuousClock.Instant)
        case halfOpen
    }

    /// What a failure or success changed, for logs and metrics.
    enum Change: Equatable {
        case none
        case opened
        case closed
    }

    private let phase = Locked(Phase.closed(failures: 0))
    let failureThreshold: Int
    let cooldown: Duration

    init(failureThreshold: Int, cooldown: Duration) {
        self.failureThreshold = max(1, failureThreshold)
        self.cooldown = cooldown
    }

    /// What to do with a call now.
    enum Decision: Equatable {
        /// Make it (the breaker is closed).
        case call
        /// Skip it (open, or half-open with its trial under way).
        case skip
        /// The cooldown has passed: this call is the one trial (the breaker is half-open now).
        case trial
    }

    /// What to do with a call now; moves an open breaker whose cooldown has passed to half-open.
    func decide(now: ContinuousClock.Instant = .now) -> Decision {
        phase.withLock { phase in
            switch phase {
            case .closed: return .call
            case .halfOpen: return .skip
            case .open(let until):
                guard now >= until else { return .skip }
                phase = .halfOpen
                return .trial
            }
        }
    }

    /// A call went through.
    @discardableResult
    func recordSuccess() -> Change {
        phase.withLock { phase in
            defer { phase = .closed(failures: 0) }
            if case .closed = phase { return .none }
            return .closed
        }
    }

    /// A call failed.
    @discardableResult
    func recordFailure(now: ContinuousClock.Instant = .now) -> Change {
        phase.withLock { phase in
            switch phase {
            case .closed(let failures) where failures + 1 < failureThreshold:
                phase = .closed(failures: failures + 1)
                return .none
            case .closed, .halfOpen:
                phase = .open(until: now + cooldown)
                return .opened
            case .open:
                return .none
            }
        }
    }

    /// Whether calls are being skipped (open, or half-open with its one call under way).
    var isOpen: Bool {
        phase.withLock { phase in
            if case .closed = phase { return false }
            return true
        }
    }
}
