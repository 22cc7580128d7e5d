import Glibc
import Vignette
import VignetteSupport

/// `12/40 [=====>      ] 3.2 img/s  ETA 8s` on standard error, redrawn in place, only when
/// standard error is a terminal. Failure lines go through `line(_:)` so they never tear it.
final class ProgressBar: Sendable {
    private struct State: Sendable {
        var done = 0
        var failed = 0
        var lastDraw: ContinuousClock.Instant?
        var visible = false
    }

    let total: Int
    let isEnabled: Bool
    private let started = ContinuousClock.now
    /// The project's one lock type (ThreadSanitizer reads `Synchronization.Mutex` on Linux as racy).
    private let state = Locked(State())

    init(total: Int, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        isEnabled = enabled && total > 0
    }

    /// One input finished.
    func advance(failed: Bool) {
        state.withLock { state in
            state.done += 1
            if failed { state.failed += 1 }
            let now = ContinuousClock.now
            if let last = state.lastDraw, now - last < .milliseconds(100), state.done < total { return }
            state.lastDraw = now
            draw(&state)
        }
    }

    /// Prints `text` (a whole line) above the bar.
    func line(_ text: String) {
        state.withLock { state in
            if state.visible { write("\r\u{1B}[K") }
            write(text.hasSuffix("\n") ? text : text + "\n")
            if state.visible { draw(&state) }
        }
    }

    /// Removes the bar (before the final report).
    func finish() {
        state.withLock { state in
            if state.visible { write("\r\u{1B}[K") }
            state.visible = false
        }
    }

    private func draw(_ state: inout State) {
        guard isEnabled else { return }
        let elapsed = Double((ContinuousClock.now - started).components.seconds)
            + Double((ContinuousClock.now - started).components.attoseconds) / 1e18
        let rate = elapsed > 0 ? Double(state.done) / elapsed : 0
        let remaining = rate > 0 ? Int((Double(total - state.done) / rate).rounded(.up)) : -1
        let width = 24
        let filled = total > 0 ? width * state.done / total : 0
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" : "")
            + String(repeating: " ", count: max(0, width - filled - 1))
        let failed = state.failed > 0 ? "  \(state.failed) failed" : ""
        let eta = remaining >= 0 ? "  ETA \(remaining)s" : ""
        let rateText = "\(Double(Int(rate * 10)) / 10) img/s"
        write("\r\u{1B}[K\(state.done)/\(total) [\(bar)] \(rateText)\(eta)\(failed)")
        state.visible = true
    }

    private func write(_ text: String) { Console.write(text) }
}
