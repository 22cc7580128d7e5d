import VignetteSupport
import Logging

extension DataCache {
    /// Enforces the size limit now: when the entries take more than `sizeLimit`, deletes the least
    /// recently used (oldest modification time) until they take at most 70 % of it. Also deletes
    /// temporary files older than a minute. Runs on the writer after the changes already queued;
    /// returns when done, suspending without blocking a thread of Swift's cooperative pool. The
    /// writer also sweeps on its own every `sweepInterval`.
    public func sweep() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            worker.execute {
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
        guard total > sizeLimit else {
            tally.withLock { $0.measured(bytes: total, entries: listing.entries.count) }
            return
        }
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
        tally.withLock {
            $0.measured(bytes: total, entries: listing.entries.count - removed)
            $0.evictions += removed
        }
        logger.debug(
            "swept the disk cache",
            metadata: ["removed": "\(removed)", "bytesBefore": "\(before)", "bytesAfter": "\(total)"])
    }
}

/// The timer that makes a `DataCache` sweep on its own, on its writer: a task that sleeps (on
/// no thread) and hands the sweep to the writer every `interval`, until it is cancelled.
final class DataCacheSweepTimer: Sendable {
    private let interval: Duration
    private let task = Locked<Task<Void, Never>?>(nil)

    /// A timer firing every `interval`, or nil when `interval` is zero or negative.
    init?(interval: Duration) {
        guard interval > .zero else { return nil }
        // Clamped: at least a millisecond, at most a day.
        self.interval = min(max(interval, .milliseconds(1)), .seconds(86_400))
    }

    /// Starts handing `handler` to `worker` every interval.
    func start(on worker: BlockingExecutor, _ handler: @escaping @Sendable () -> Void) {
        let interval = interval
        task.withLock { task in
            task = Task.detached(priority: .utility) {
                while !Task.isCancelled {
                    do { try await Task.sleep(for: interval) } catch { return }
                    worker.execute(handler)
                }
            }
        }
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
