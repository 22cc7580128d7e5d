import Vignette
import VignetteSupport

/// A token bucket: `burst` requests may start at once, then `rate` a second. A request waiting
/// for a token that is cancelled leaves without ever reaching the server, so bursts of starts and
/// cancels (a list scrolled quickly) do not hammer it.
public final class RateLimiter: Sendable {
    /// Tokens added a second.
    public let rate: Double
    /// Tokens that can be saved up, and so start at once.
    public let burst: Int
    private let bucket: Locked<(tokens: Double, refilled: ContinuousClock.Instant)>

    /// `rate` tokens a second (> 0), at most `burst` (≥ 1) saved up.
    public init(rate: Double, burst: Int) {
        self.rate = max(rate, 0.001)
        self.burst = max(burst, 1)
        bucket = Locked((Double(max(burst, 1)), ContinuousClock.now))
    }

    /// Takes a token, waiting for one when the bucket is empty; throws `CancellationError` if the
    /// calling task is cancelled first.
    public func acquire() async throws {
        while true {
            try Task.checkCancellation()
            let wait = bucket.withLock { bucket -> Double? in
                let now = ContinuousClock.now
                let elapsed = now - bucket.refilled
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                bucket.tokens = min(Double(burst), bucket.tokens + seconds * rate)
                bucket.refilled = now
                if bucket.tokens >= 1 {
                    bucket.tokens -= 1
                    return nil
                }
                return (1 - bucket.tokens) / rate
            }
            guard let wait else { return }
            try await Task.sleep(for: .nanoseconds(Int64(wait * 1e9) + 1))
        }
    }
}
