import NIOConcurrencyHelpers

/// Opened once by a test; what waits on it runs then (or at once when it is already open).
public final class Gate: Sendable {
    private let state = NIOLockedValueBox<(open: Bool, waiting: [@Sendable () -> Void])>((false, []))

    public init() {}

    /// Opens the gate and runs what waited on it.
    public func open() {
        let waiting = state.withLockedValue { state in
            defer { state = (true, []) }
            return state.waiting
        }
        for body in waiting { body() }
    }

    /// Runs `body` when the gate opens.
    func whenOpen(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLockedValue { state -> Bool in
            if state.open { return true }
            state.waiting.append(body)
            return false
        }
        if now { body() }
    }
}
