import Dispatch
import Glibc
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM: instead of dying mid-write, the batch stops taking inputs, lets the
/// ones in flight finish (their outputs appear whole or not at all), reports, and exits with
/// 128 + the signal's number, as a shell reports a process the signal ended: 130 after SIGINT,
/// 143 after SIGTERM. A second signal of either kind ends the process at once, with the status
/// of that second signal.
final class Interrupt: Sendable {
    /// The first signal received, 0 before any.
    private let received = Atomic<Int32>(0)
    // Written once, by install() on the main thread, to keep the sources alive.
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []
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
        received.load(ordering: .acquiring) == SIGTERM ? "SIGTERM" : "SIGINT"
    }

    func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [self] in
                if !received.compareExchange(expected: 0, desired: signalNumber, ordering: .acquiringAndReleasing).exchanged {
                    // A second signal: the user (or the supervisor) means it.
                    Glibc.exit(128 + signalNumber)
                }
                onInterrupt()
            }
            source.resume()
            sources.append(source)
        }
    }
}
