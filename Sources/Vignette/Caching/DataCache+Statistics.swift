/// What a `DataCache` holds on disk, as this object last counted it: measured from a listing of
/// the folder when the cache opens and at every sweep, and between them brought forward by the
/// writes this object makes (a write over an existing entry counts it twice until the next
/// sweep; entries other processes write are seen at the next sweep).
struct DataCacheTally: Sendable {
    var bytes = 0
    var entries = 0
    var evictions = 0

    /// The folder as a listing saw it.
    mutating func measured(bytes: Int, entries: Int) {
        self.bytes = bytes
        self.entries = entries
    }

    /// An entry of `bytes` (its file's size) written.
    mutating func wrote(bytes: Int) {
        self.bytes += bytes
        entries += 1
    }
}

extension DataCache {
    /// Bytes and entries on disk, the entries the sweeps deleted to keep `sizeLimit`, and the
    /// limit itself (`DataCacheTally`): no listing of the folder, so it is cheap to read on every
    /// scrape; exact after each sweep (`sweepInterval`, or `sweep()`), approximate between them.
    public var statistics: CacheStatistics {
        let tally = tally.withLock { $0 }
        return CacheStatistics(bytes: tally.bytes, entries: tally.entries, evictions: tally.evictions, byteLimit: sizeLimit)
    }

    /// Counts the folder (`DataCacheDirectory.list`) into the tally; runs on the writer.
    func measure() {
        guard let listing = try? directory.list() else { return }
        tally.withLock { $0.measured(bytes: listing.entries.reduce(0) { $0 + $1.size }, entries: listing.entries.count) }
    }
}
