#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import VignetteSupport

/// The files of a `DataCache` folder, reached with POSIX calls only.
///
/// - An *entry* is a regular file whose name is 64 lowercase hex digits (the SHA-256 of its key),
///   holding a header, the entry's metadata and its data (`DataCacheEntryFile`).
///   Entries are never modified in place: each is written whole to a temporary file in the same
///   folder and then `rename(2)`d over its final name, so a reader, in this process or another,
///   sees either the old entry, the new one or none, never part of one.
/// - A *temporary file* is named `.tmp-<pid>-<random>`; a writer that was killed leaves it behind,
///   and the sweep removes those older than `DataCache.temporaryFileLifetime`.
/// - Anything else in the folder is neither counted nor removed.
struct DataCacheDirectory: Sendable {
    /// One file as listed: its name, size in bytes and modification time (nanoseconds since the epoch).
    struct FileRecord: Sendable {
        let name: String
        let size: Int
        let modified: Int64
    }

    /// The entries and temporary files of the folder, as one listing saw them.
    struct Listing: Sendable {
        var entries: [FileRecord] = []
        var temporaries: [FileRecord] = []
    }

    /// What reading an entry gave.
    enum ReadOutcome: Sendable {
        case entry(DataCache.Entry)
        /// No such entry (`ENOENT`): a plain miss.
        case missing
        /// The entry is there but could not be read; the reason, for the log.
        case failed(String)
    }

    static let temporaryPrefix = ".tmp-"
    /// A read refreshes an entry's modification time only when it is older than this, so a hot
    /// entry does not cost a metadata write on every read (LRU needs no finer grain).
    static let recencyGranularityNanoseconds: Int64 = 1_000_000_000

    let path: String

    func entryPath(_ filename: String) -> String { path + "/" + filename }

    /// Whether `name` is an entry's name: 64 lowercase hex digits.
    static func isEntryName(_ name: some StringProtocol) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    // MARK: Reading

    /// An entry's bytes and metadata (`DataCacheEntryFile`). A successful read also marks the entry
    /// as recently used by moving its modification time to now (`futimens`), which is what the
    /// sweep's LRU order is made of, so recency is shared by every process using the folder. A file
    /// that is not in this cache's format is a miss.
    func read(_ filename: String) -> ReadOutcome {
        let file = entryPath(filename)
        let descriptor: Int32
        let status: FileStatus
        do throws(SystemError) {
            descriptor = try systemCall("open") { open(file, O_RDONLY | O_CLOEXEC) }
        } catch {
            return error.code == ENOENT ? .missing : .failed("cannot open \(file): \(error.reason)")
        }
        defer { _ = try? closeDescriptor(descriptor) }
        do throws(SystemError) { status = try FileStatus(descriptor: descriptor) } catch {
            return .failed("cannot stat \(file): \(error.reason)")
        }
        guard status.kind == .regular else { return .failed("\(file) is not a regular file") }
        let size = status.size
        let entry: DataCache.Entry
        do throws(InputFile.Failure) {
            let header = try InputFile.read(descriptor: descriptor, count: DataCacheEntryFile.headerSize, path: file)
            guard let metadataCount = DataCacheEntryFile.metadataCount(inHeader: header) else { return .missing }
            var metadata: Data?
            if let metadataCount { metadata = try InputFile.read(descriptor: descriptor, count: metadataCount, path: file) }
            let dataCount = size - DataCacheEntryFile.headerSize - (metadataCount ?? 0)
            // Entries are replaced, never rewritten, so the open file cannot shrink; if it did,
            // someone else wrote into the folder, and a short entry must not be served.
            guard dataCount >= 0, metadata?.count ?? 0 == metadataCount ?? 0 else {
                return .failed("\(file) is shorter than its header says")
            }
            let data = try InputFile.read(descriptor: descriptor, count: dataCount, path: file)
            if data.count < dataCount { return .failed("\(file) ended after \(data.count) of \(dataCount) bytes of data") }
            entry = DataCache.Entry(data: data, metadata: metadata)
        } catch {
            return .failed(error.message)
        }
        if Self.now() &- status.modifiedNanosecondsSinceEpoch > Self.recencyGranularityNanoseconds {
            _ = try? systemCall("futimens") { futimens(descriptor, nil) }  // best effort: a read-only folder still serves hits
        }
        return .entry(entry)
    }

    /// Whether an entry file exists.
    func contains(_ filename: String) -> Bool {
        (try? FileStatus(path: entryPath(filename)))?.kind == .regular
    }

    // MARK: Writing

    /// Writes `entry` as the file `filename` (header, metadata, data): to a new temporary file
    /// first, then renamed over the final name. Recreates the folder if it was deleted under the cache.
    func write(_ entry: DataCache.Entry, as filename: String) throws(ImagingError) {
        if let metadata = entry.metadata, metadata.count > DataCacheEntryFile.maxMetadataBytes {
            throw ImagingError(.limitExceeded, "disk cache metadata of \(metadata.count) bytes is over the limit")
        }
        let temporary = path + "/" + Self.temporaryPrefix + "\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let parts = [Data(DataCacheEntryFile.header(metadataCount: entry.metadata?.count)), entry.metadata ?? Data(), entry.data]
        var failure = AtomicFile.write(parts, to: entryPath(filename), through: temporary)
        if let first = failure, first.step == .create, first.code == ENOENT {
            try Self.createFolder(path)
            failure = AtomicFile.write(parts, to: entryPath(filename), through: temporary)
        }
        guard let failure else { return }
        switch failure.step {
        case .create: throw ImagingError(SystemError("open", code: failure.code), "cannot create \(temporary)")
        case .write: throw ImagingError(SystemError("write", code: failure.code), "cannot write \(temporary)")
        case .rename: throw ImagingError(SystemError("rename", code: failure.code), "cannot rename \(temporary) to \(filename)")
        }
    }

    // MARK: Removing

    /// Removes a file of the folder; a file that is already gone counts as removed.
    @discardableResult
    func remove(_ name: String) -> Bool {
        do throws(SystemError) {
            try systemCall("unlink") { unlink(entryPath(name)) }
            return true
        } catch {
            return error.code == ENOENT
        }
    }

    // MARK: Listing

    /// The entries and temporary files in the folder. Files that vanish between the listing and
    /// their `stat` are left out.
    func list() throws(ImagingError) -> Listing {
        let names: [String]
        do throws(SystemError) { names = try Folder.names(in: path) } catch { throw ImagingError(error, "cannot list \(path)") }
        var listing = Listing()
        for name in names {
            let isEntry = Self.isEntryName(name)
            guard isEntry || name.hasPrefix(Self.temporaryPrefix) else { continue }
            guard let status = try? FileStatus(path: entryPath(name), followingLinks: false), status.kind == .regular else { continue }
            let record = FileRecord(name: name, size: status.size, modified: status.modifiedNanosecondsSinceEpoch)
            if isEntry { listing.entries.append(record) } else { listing.temporaries.append(record) }
        }
        return listing
    }

    // MARK: The folder itself

    /// Creates the folder and its parents when missing (`Folder.create`, mode 0755); the error is
    /// `.io` with the failed `mkdir`'s `errno` (`ImagingError.Code.system`).
    static func createFolder(_ path: String) throws(ImagingError) {
        do throws(Folder.CreationFailure) {
            try Folder.create(path, mode: 0o755)
        } catch {
            throw ImagingError(
                .io, "cannot create the cache folder \(error.folder): \(error.reason)",
                code: .system(call: error.system.call, errno: error.system.code))
        }
    }

    // MARK: Helpers

    /// The wall clock in nanoseconds since the epoch: the clock file times are in.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
}
