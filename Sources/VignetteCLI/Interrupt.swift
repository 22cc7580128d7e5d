import Dispatch
import Glibc
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM: instead of dying mid-write, the batch stops taking inputs, lets the
/// ones in flight finish (their outputs appear whole or not at all), reports, and exits 130.
final class Interrupt: Sendable {
    private let flag = Atomic<Bool>(false)
    // Written once, by install() on the main thread, to keep the sources alive.
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []
    private let onInterrupt: @Sendable () -> Void

    init(onInterrupt: @escaping @Sendable () -> Void = {}) {
        self.onInterrupt = onInterrupt
    }

    var isRequested: Bool { flag.load(ordering: .acquiring) }

    func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { [self] in
                if flag.exchange(true, ordering: .acquiringAndReleasing) {
                    // A second signal: the user means it.
                    Glibc.exit(130)
                }
                onInterrupt()
            }
            source.resume()
            sources.append(source)
        }
    }
}
