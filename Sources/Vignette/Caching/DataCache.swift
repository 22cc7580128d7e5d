#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import VignetteSupport

/// A disk cache of data: one file per key, in one folder, that any number of `DataCache`
/// objects (in this process or others) may share.
///
/// - **Files.** Each entry is a file in `path` named by the SHA-256 hex of its key
///   (`filename(for:)`). Entries are written whole to a temporary file in the folder and then
///   renamed over their name, so no reader ever sees part of one, even when the writing process is
///   killed mid-write. Writes are not `fsync`ed: an entry survives any process crash, but a power
///   loss may lose recent entries (it is a cache).
/// - **Writes never block.** `storeData` and `removeData` stage the change in memory and return;
///   one serial background writer (a `BlockingExecutor` of one thread, not Swift's cooperative pool) applies them in
///   order. Reads see staged changes at once; a later change to a key wins over an earlier one.
///   `flush()` waits for the writer. Queued writes hold on to the cache, so they still land when the
///   last reference to it goes away before they are done.
/// - **Size limit.** A sweep, every `sweepInterval` on the writer and on `sweep()`, deletes
///   least-recently-used entries until the total is at most 70 % of `sizeLimit`, once it is over.
///   Recency is the file's modification time, refreshed by reads, so it is shared across processes.
///   The sweep also deletes temporary files older than a minute (left by a killed writer).
/// - **Several processes.** There is no in-memory index: each read goes to the folder (after the
///   staged changes), so entries written, read or removed by another process are seen as they are.
///   An entry that vanishes is a miss; one that cannot be read is a miss that is logged.
///
/// Thread safety: all mutable state (the staged changes) lives behind a lock (`Locked`); the
/// rest is immutable or thread-safe (its `BlockingExecutor`, `Logger`, the timer box), so the class is
/// `Sendable`.
public final class DataCache: Sendable {
    /// The folder holding the entries.
    public let path: String
    /// The most bytes the entries may take before a sweep trims them (to 70 % of this).
    public let sizeLimit: Int
    /// How often the background writer sweeps on its own; zero or negative turns it off.
    public let sweepInterval: Duration
    /// The most bytes of writes that may wait for the disk (64 MiB by default); see `storeData`.
    public let stagingLimit: Int

    /// Temporary files older than this are a dead writer's leftovers and are deleted by the sweep.
    static let temporaryFileLifetime: Duration = .seconds(60)

    let directory: DataCacheDirectory
    let staging = Locked(DataCacheStaging())
    /// What the folder holds, as this object counts it (`statistics`).
    let tally = Locked(DataCacheTally())
    /// The one serial writer: every change to the folder made by this object runs here, in order.
    let worker = BlockingExecutor(maxThreads: 1)
    let logger = Logger(label: "vignette.datacache")
    private let sweepTimer: DataCacheSweepTimer?

    /// Opens (and creates when missing) a disk cache in the folder `path`.
    /// - Parameters:
    ///   - path: the folder; created with its parents if missing. Files in it that are neither
    ///     entries nor the cache's temporary files are left alone.
    ///   - sizeLimit: the most bytes the entries may take (default 150 MiB).
    ///   - sweepInterval: how often to enforce `sizeLimit` in the background (default 30 s);
    ///     zero or negative for never (then only `sweep()` does).
    ///   - stagingLimit: the most bytes of writes that may wait for the disk (default 64 MiB).
    /// - Throws: `ImagingError` of kind `.io` when the folder cannot be created.
    public init(
        path: String, sizeLimit: Int = 150 << 20, sweepInterval: Duration = .seconds(30), stagingLimit: Int = 64 << 20
    ) throws {
        self.stagingLimit = max(0, stagingLimit)
        var folder = path
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        try DataCacheDirectory.createFolder(folder)
        self.path = folder
        self.sizeLimit = max(0, sizeLimit)
        self.sweepInterval = sweepInterval
        self.directory = DataCacheDirectory(path: folder)
        self.sweepTimer = DataCacheSweepTimer(interval: sweepInterval)
        sweepTimer?.start(on: worker) { [weak self] in self?.performSweep() }
        worker.execute { [weak self] in self?.measure() }
    }

    deinit {
        sweepTimer?.cancel()
    }

    /// The name of the file that holds `key`'s entry: the lowercase hex SHA-256 of the key's UTF-8.
    public func filename(for key: String) -> String {
        DataCache.digest(of: Array(key.utf8))
    }

    /// The lowercase hex SHA-256 of `bytes` (swift-crypto, through `Digests`).
    public static func digest<Bytes: ContiguousBytes>(of bytes: Bytes) -> String {
        bytes.withUnsafeBytes { Digests.sha256Hex($0) }
    }

    // MARK: Reading

    /// The data stored for `key`, or nil. A write not yet on disk is returned at once. A hit on
    /// disk marks the entry as recently used. A file that cannot be read is a miss (logged).
    public func data(for key: String) -> Data? {
        entry(for: key)?.data
    }

    /// The data and metadata stored for `key`, or nil; see `data(for:)`.
    public func entry(for key: String) -> Entry? {
        switch staging.withLock({ $0.lookup(key) }) {
        case .staged(let entry): return entry
        case .absent: return nil
        case .disk: break
        }
        let filename = filename(for: key)
        switch directory.read(filename) {
        case .entry(let entry): return entry
        case .missing: return nil
        case .failed(let reason):
            logger.warning("disk cache entry unreadable, treated as a miss", metadata: ["reason": "\(reason)"])
            return nil
        }
    }

    /// Whether there is data for `key`, staged or on disk. Does not count as a use for the LRU order.
    public func containsData(for key: String) -> Bool {
        switch staging.withLock({ $0.lookup(key) }) {
        case .staged: true
        case .absent: false
        case .disk: directory.contains(filename(for: key))
        }
    }

    /// The bytes of the entries on disk (staged writes count once `flush()` has written them).
    public var totalSize: Int {
        do {
            return try directory.list().entries.reduce(0) { $0 + $1.size }
        } catch {
            logger.warning("cannot measure the disk cache", metadata: ["reason": "\(error)"])
            return 0
        }
    }

    // MARK: Writing

    /// Stores `data` for `key`, with `metadata` in the same file (nil for none), replacing what was
    /// there: the two are read, swept and removed together. Returns at once: the entry is readable
    /// through `data(for:)` and `entry(for:)` immediately and written to disk in the background.
    /// The writes waiting for the disk hold at most `stagingLimit` bytes: past it a write is
    /// dropped (it is a cache; the entry is a miss, logged) rather than holding ever more memory
    /// while the disk is slow.
    public func storeData(_ data: Data, metadata: Data? = nil, for key: String) {
        let entry = Entry(data: data, metadata: metadata)
        let id = staging.withLock { staging -> UInt64? in
            guard staging.stagedBytes + entry.byteCount <= stagingLimit else { return nil }
            return staging.stage(.write(entry), for: key)
        }
        guard let id else {
            logger.warning("disk cache writes are behind; an entry was dropped", metadata: ["bytes": "\(entry.byteCount)"])
            return
        }
        worker.execute { self.applyWrite(key, id: id) }
    }

    /// Bytes of the writes waiting for the disk.
    public var stagedBytes: Int { staging.withLock { $0.stagedBytes } }

    /// Removes `key`'s entry, staged or on disk. Returns at once; the file is deleted in the background.
    public func removeData(for key: String) {
        let id = staging.withLock { $0.stage(.removal, for: key) }
        worker.execute {
            self.directory.remove(self.filename(for: key))
            self.staging.withLock { $0.settle(key, id: id) }
        }
    }

    /// Removes every entry, staged or on disk (files that are not entries stay). Returns at once;
    /// reads see the cache empty immediately, apart from data stored after this call.
    public func removeAll() {
        staging.withLock { $0.beginRemoveAll() }
        worker.execute {
            do {
                for entry in try self.directory.list().entries { self.directory.remove(entry.name) }
                self.measure()
            } catch {
                self.logger.warning("cannot empty the disk cache", metadata: ["reason": "\(error)"])
            }
            self.staging.withLock { $0.settleRemoveAll() }
        }
    }

    /// Returns once every change made before this call is on disk. Suspends without blocking a
    /// thread of Swift's cooperative pool: the writer resumes it when it reaches this point of its
    /// queue. For shutdown (`ImagePipeline.flushDiskCache()`) and tests.
    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            worker.execute { continuation.resume() }
        }
    }

    private func applyWrite(_ key: String, id: UInt64) {
        guard let entry = staging.withLock({ $0.entryToWrite(key, id: id) }) else { return }
        do {
            try directory.write(entry, as: filename(for: key))
            tally.withLock { $0.wrote(bytes: DataCacheEntryFile.headerSize + entry.byteCount) }
        } catch {
            // Dropping the staged data turns the entry into a miss rather than holding it in memory.
            logger.warning("cannot write a disk cache entry", metadata: ["reason": "\(error)"])
        }
        staging.withLock { $0.settle(key, id: id) }
    }
}
