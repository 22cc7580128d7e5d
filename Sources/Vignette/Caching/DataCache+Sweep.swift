import Dispatch
import Logging

extension DataCache {
    /// Enforces the size limit now: when the entries take more than `sizeLimit`, deletes the least
    /// recently used (oldest modification time) until they take at most 70 % of it. Also deletes
    /// temporary files older than a minute. Runs on the writer after the changes already queued;
    /// returns when done, suspending without blocking a thread of Swift's cooperative pool. The
    /// writer also sweeps on its own every `sweepInterval`.
    public func sweep() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            worker.async {
                self.performSweep()
                continuation.resume()
            }
        }
    }

    /// The sweep itself; runs on the writer.
    func performSweep() {
        let listing: DataCacheDirectory.Listing
        do {
            listing = try directory.list()
        } catch {
            logger.warning("cannot sweep the disk cache", metadata: ["reason": "\(error)"])
            return
        }
        let now = DataCacheDirectory.now()
        let lifetime = Self.temporaryFileLifetime.components
        let staleBefore = now - (lifetime.seconds * 1_000_000_000 + lifetime.attoseconds / 1_000_000_000)
        for temporary in listing.temporaries where temporary.modified < staleBefore {
            directory.remove(temporary.name)
            logger.debug("removed a stale temporary file", metadata: ["file": "\(temporary.name)"])
        }

        var total = listing.entries.reduce(0) { $0 + $1.size }
        guard total > sizeLimit else { return }
        let target = sizeLimit - sizeLimit / 10 * 3
        let before = total
        var removed = 0
        let oldestFirst = listing.entries.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }
        for entry in oldestFirst {
            if total <= target { break }
            // A file already gone (another process swept it) no longer counts either.
            directory.remove(entry.name)
            total -= entry.size
            removed += 1
        }
        logger.debug(
            "swept the disk cache",
            metadata: ["removed": "\(removed)", "bytesBefore": "\(before)", "bytesAfter": "\(total)"])
    }
}

/// The timer that makes a `DataCache` sweep on its own, on its writer queue.
///
/// `@unchecked Sendable`: it only holds a dispatch source, which libdispatch makes safe to start and
/// cancel from any thread; the class adds no state of its own.
final class DataCacheSweepTimer: @unchecked Sendable {
    private let source: DispatchSourceTimer
    private let interval: DispatchTimeInterval

    /// A timer firing every `interval` on `queue`, or nil when `interval` is zero or negative.
    init?(interval: Duration, queue: DispatchQueue) {
        guard interval > .zero else { return nil }
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        // Clamped to a day: longer than any sensible interval, far from overflow.
        self.interval = .nanoseconds(Int(min(max(nanoseconds, 1_000_000), 86_400e9)))
        self.source = DispatchSource.makeTimerSource(queue: queue)
    }

    func start(_ handler: @escaping @Sendable () -> Void) {
        let leeway: DispatchTimeInterval
        if case .nanoseconds(let nanoseconds) = interval { leeway = .nanoseconds(max(nanoseconds / 10, 1)) } else { leeway = .milliseconds(10) }
        source.schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func cancel() {
        source.cancel()
    }
}
