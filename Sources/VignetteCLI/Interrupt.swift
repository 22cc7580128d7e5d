import Glibc
import Synchronization
import UnixSignals

/// Ctrl-C (SIGINT) and SIGTERM: instead of dying mid-write, the batch stops taking inputs, lets the
/// ones in flight finish (their outputs appear whole or not at all), reports, and exits with
/// 128 + the signal's number, as a shell reports a process the signal ended: 130 after SIGINT,
/// 143 after SIGTERM. A second signal of either kind ends the process at once, with the status
/// of that second signal.
///
/// The signals arrive as swift-service-lifecycle's `UnixSignalsSequence` (the server's
/// `ServiceGroup` takes them the same way), read by a task of its own.
final class Interrupt: Sendable {
    /// The first signal received, 0 before any.
    private let received = Atomic<Int32>(0)
    private let onInterrupt: @Sendable () -> Void

    init(onInterrupt: @escaping @Sendable () -> Void = {}) {
        self.onInterrupt = onInterrupt
    }

    var isRequested: Bool { received.load(ordering: .acquiring) != 0 }

    /// 128 + the first signal's number (130 for SIGINT, 143 for SIGTERM); nil before any signal.
    var exitStatus: Int32? {
        let signal = received.load(ordering: .acquiring)
        return signal == 0 ? nil : 128 + signal
    }

    /// The first signal's name, for the report line.
    var signalName: String {
        received.load(ordering: .acquiring) == UnixSignal.sigterm.rawValue ? "SIGTERM" : "SIGINT"
    }

    /// Traps SIGINT and SIGTERM from now on, for the rest of the process's life.
    func install() async {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        Task { [self] in
            for await signal in signals { receive(signal.rawValue) }
        }
    }

    private func receive(_ signal: Int32) {
        guard received.compareExchange(expected: 0, desired: signal, ordering: .acquiringAndReleasing).exchanged else {
            // A second signal: the user (or the supervisor) means it.
            Glibc.exit(128 + signal)
        }
        onInterrupt()
    }
}
