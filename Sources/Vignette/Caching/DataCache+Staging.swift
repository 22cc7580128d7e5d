#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The changes a `DataCache` has accepted but its writer has not yet applied to the folder.
///
/// Every change gets a fresh id. The writer applies a change only while it is still the latest
/// one for its key and settles it (drops it from here) only if no later change replaced it in the
/// meantime, so reads always see the newest change: staged data, a staged removal, or the folder.
struct DataCacheStaging: Sendable {
    enum Change: Sendable {
        case write(DataCache.Entry)
        case removal
    }

    struct Pending: Sendable {
        let change: Change
        let id: UInt64
    }

    /// What a read should use.
    enum Lookup: Sendable {
        /// Data written but maybe not yet on disk.
        case staged(DataCache.Entry)
        /// Removed (by `removeData` or a pending `removeAll`), whatever the folder holds.
        case absent
        /// Nothing pending: the folder has the answer.
        case disk
    }

    private(set) var pending: [String: Pending] = [:]
    /// `removeAll` calls whose folder clean-up has not run yet; while any is pending, keys with no
    /// later write read as absent.
    private(set) var removeAllsInFlight = 0
    private var lastID: UInt64 = 0
    /// Bytes of the writes staged and not yet settled.
    private(set) var stagedBytes = 0

    func lookup(_ key: String) -> Lookup {
        switch pending[key]?.change {
        case .write(let entry): .staged(entry)
        case .removal: .absent
        case nil: removeAllsInFlight > 0 ? .absent : .disk
        }
    }

    /// Records a change and returns its id, for the writer to apply.
    mutating func stage(_ change: Change, for key: String) -> UInt64 {
        lastID &+= 1
        if case .write(let old)? = pending[key]?.change { stagedBytes -= old.byteCount }
        if case .write(let entry) = change { stagedBytes += entry.byteCount }
        pending[key] = Pending(change: change, id: lastID)
        return lastID
    }

    /// The entry of write `id` if it is still the latest change for `key`; nil when it was replaced
    /// or removed (then there is nothing to write).
    func entryToWrite(_ key: String, id: UInt64) -> DataCache.Entry? {
        guard let item = pending[key], item.id == id, case .write(let entry) = item.change else { return nil }
        return entry
    }

    /// Drops change `id` once the folder reflects it, unless a later change replaced it.
    mutating func settle(_ key: String, id: UInt64) {
        guard let item = pending[key], item.id == id else { return }
        if case .write(let entry) = item.change { stagedBytes -= entry.byteCount }
        pending[key] = nil
    }

    /// Forgets every pending change and hides the folder until `settleRemoveAll` is called.
    mutating func beginRemoveAll() {
        pending.removeAll()
        stagedBytes = 0
        removeAllsInFlight += 1
    }

    mutating func settleRemoveAll() {
        removeAllsInFlight -= 1
    }
}
