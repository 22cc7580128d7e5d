import ChildProcess
import Foundation
import Testing
@testable import Vignette
#if canImport(Glibc)
import Glibc
import TestTiming
#endif
import VignetteSupport

/// The disk cache, on real files in a fresh temporary folder per test.
@Suite struct DataCacheTests {
    /// The bytes an entry file has before its metadata and data.
    let header = DataCacheEntryFile.headerSize

    // MARK: Writes and reads

    @Test func storedDataIsReadableBeforeItReachesDiskAndAfter() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path)
        let data = dataCachePayload(seed: 1, count: 5_000)

        let gate = holdWriter(of: cache)
        cache.storeData(data, for: "a")
        // The writer is held, so this can only come from the staged write.
        #expect(cache.data(for: "a") == data)
        #expect(cache.containsData(for: "a"))
        #expect(folder.entryNames().isEmpty)
        gate.signal()

        await cache.flush()
        #expect(cache.data(for: "a") == data)
        #expect(folder.entryNames() == [cache.filename(for: "a")])
        // On disk: the entry header (no metadata), then the bytes.
        let file = try #require(FileManager.default.contents(atPath: folder.path + "/" + cache.filename(for: "a")))
        #expect(file.prefix(4) == Data("VGN1".utf8) && file.dropFirst(header) == data)
        #expect(folder.temporaryNames().isEmpty)
        #expect(cache.totalSize == header + data.count)
    }

    @Test func metadataLivesAndDiesWithItsBytes() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path)
        let data = dataCachePayload(seed: 3, count: 4_000), metadata = Data(#"{"etag":"e1"}"#.utf8)
        cache.storeData(data, metadata: metadata, for: "with")
        cache.storeData(data, for: "without")
        #expect(cache.entry(for: "with") == DataCache.Entry(data: data, metadata: metadata))
        await cache.flush()
        // One file per entry, read back whole by another cache on the folder.
        #expect(folder.entryNames().count == 2)
        let other = try DataCache(path: folder.path)
        #expect(other.entry(for: "with") == DataCache.Entry(data: data, metadata: metadata))
        #expect(other.entry(for: "without") == DataCache.Entry(data: data, metadata: nil))
        #expect(other.data(for: "with") == data)
        // Removed together.
        other.removeData(for: "with")
        await other.flush()
        #expect(cache.entry(for: "with") == nil && folder.entryNames().count == 1)
        // A file that is not in the cache's format (an earlier version's, or garbage) is a miss.
        let foreign = folder.path + "/" + cache.filename(for: "foreign")
        #expect(FileManager.default.createFile(atPath: foreign, contents: data))
        #expect(cache.data(for: "foreign") == nil)
        // A header that promises more metadata than the file has is a miss, not a crash.
        var lying = Data("VGN1".utf8)
        lying.append(contentsOf: [0xFF, 0xFF, 0x00, 0x00])
        lying.append(Data(count: 10))
        #expect(FileManager.default.createFile(atPath: foreign, contents: lying))
        #expect(cache.data(for: "foreign") == nil)
    }

    @Test func entryFileIsNamedBySHA256OfTheKey() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path + "/nested/deeper/")  // created with its parents
        #expect(cache.path == folder.path + "/nested/deeper")
        // FIPS 180-2 test vectors.
        #expect(cache.filename(for: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(cache.filename(for: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")

        cache.storeData(Data("x".utf8), for: "abc")
        await cache.flush()
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(names == ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"])
    }

    @Test func openingAFileAsTheFolderFails() throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let file = folder.path + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        #expect(throws: ImagingError.self) { try DataCache(path: file) }
    }

    @Test func secondCacheOnTheSameFolderSeesWritesAndRemovals() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let first = try DataCache(path: folder.path)
        let second = try DataCache(path: folder.path)
        let data = dataCachePayload(seed: 2, count: 3_000)

        first.storeData(data, for: "shared")
        await first.flush()
        #expect(second.data(for: "shared") == data)
        #expect(second.containsData(for: "shared"))

        second.removeData(for: "shared")
        await second.flush()
        #expect(first.data(for: "shared") == nil)
        #expect(!first.containsData(for: "shared"))
    }

    @Test func laterWriteOfTheSameKeyWins() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path)
        let versions = (1...3).map { dataCachePayload(seed: $0, count: 1_000 * $0) }

        let gate = holdWriter(of: cache)
        for version in versions { cache.storeData(version, for: "k") }
        #expect(cache.data(for: "k") == versions[2])
        gate.signal()
        await cache.flush()
        #expect(cache.data(for: "k") == versions[2])
        #expect(try DataCache(path: folder.path).data(for: "k") == versions[2])
        #expect(folder.entryNames().count == 1)
        #expect(folder.temporaryNames().isEmpty)

        // And once the first version is on disk.
        cache.storeData(versions[0], for: "k")
        await cache.flush()
        cache.storeData(versions[1], for: "k")
        #expect(cache.data(for: "k") == versions[1])
        await cache.flush()
        #expect(try DataCache(path: folder.path).data(for: "k") == versions[1])
    }

    @Test func manyThreadsReadTheirOwnLatestWrites() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path)
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<40 {
                let data = dataCachePayload(seed: thread * 100 + round, count: 500 + round)
                cache.storeData(data, for: "thread-\(thread)")
                if cache.data(for: "thread-\(thread)") != data { mismatches.withLock { $0 += 1 } }
            }
        }
        await cache.flush()
        #expect(mismatches.withLock { $0 } == 0)
        for thread in 0..<8 {
            #expect(cache.data(for: "thread-\(thread)") == dataCachePayload(seed: thread * 100 + 39, count: 539))
        }
        #expect(folder.entryNames().count == 8)
    }

    // MARK: Removal

    @Test func removeDataRemovesStagedAndStoredEntries() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path)
        cache.storeData(dataCachePayload(seed: 1, count: 100), for: "on-disk")
        await cache.flush()

        let gate = holdWriter(of: cache)
        cache.storeData(dataCachePayload(seed: 2, count: 100), for: "staged")
        cache.removeData(for: "on-disk")
        cache.removeData(for: "staged")
        // Gone at once, although the writer has not run.
        #expect(cache.data(for: "on-disk") == nil)
        #expect(cache.data(for: "staged") == nil)
        #expect(!cache.containsData(for: "on-disk"))
        #expect(folder.entryNames().count == 1)
        // Stored again after the removal: the new data is what counts.
        let again = dataCachePayload(seed: 3, count: 100)
        cache.storeData(again, for: "on-disk")
        #expect(cache.data(for: "on-disk") == again)
        gate.signal()

        await cache.flush()
        #expect(cache.data(for: "staged") == nil)
        #expect(cache.data(for: "on-disk") == again)
        #expect(folder.entryNames() == [cache.filename(for: "on-disk")])
    }

    @Test func removeAllRemovesEveryEntryButNothingElse() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path)
        for index in 0..<5 { cache.storeData(dataCachePayload(seed: index, count: 200), for: "key-\(index)") }
        await cache.flush()
        #expect(FileManager.default.createFile(atPath: folder.path + "/notes.txt", contents: Data("mine".utf8)))

        let gate = holdWriter(of: cache)
        cache.storeData(dataCachePayload(seed: 9, count: 200), for: "staged")
        cache.removeAll()
        #expect((0..<5).allSatisfy { cache.data(for: "key-\($0)") == nil })
        #expect(cache.data(for: "staged") == nil)
        let after = dataCachePayload(seed: 10, count: 300)
        cache.storeData(after, for: "after")
        #expect(cache.data(for: "after") == after)
        gate.signal()

        await cache.flush()
        #expect(folder.entryNames() == [cache.filename(for: "after")])
        #expect(FileManager.default.fileExists(atPath: folder.path + "/notes.txt"))
        #expect(cache.data(for: "after") == after)
        #expect(cache.totalSize == header + after.count)
    }

    // MARK: Misses

    @Test func vanishedOrUnreadableEntriesAreMisses() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path)
        cache.storeData(dataCachePayload(seed: 1, count: 100), for: "vanishing")
        await cache.flush()
        try FileManager.default.removeItem(atPath: folder.path + "/" + cache.filename(for: "vanishing"))
        #expect(cache.data(for: "vanishing") == nil)
        #expect(!cache.containsData(for: "vanishing"))

        // An entry name that is not a readable file (here a directory) is a miss, not a crash.
        try FileManager.default.createDirectory(
            atPath: folder.path + "/" + cache.filename(for: "odd"), withIntermediateDirectories: false)
        #expect(cache.data(for: "odd") == nil)
        #expect(!cache.containsData(for: "odd"))
        #expect(cache.totalSize == 0)
        #expect(cache.data(for: "never stored") == nil)
    }

    // MARK: Size and LRU

    @Test func totalSizeCountsOnlyEntries() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path)
        for (index, size) in [1_000, 2_345, 7].enumerated() {
            cache.storeData(dataCachePayload(seed: index, count: size), for: "key-\(index)")
        }
        await cache.flush()
        #expect(FileManager.default.createFile(atPath: folder.path + "/other", contents: Data(count: 5_000)))
        #expect(FileManager.default.createFile(atPath: folder.path + "/.tmp-1-abc", contents: Data(count: 5_000)))
        #expect(cache.totalSize == 3_352 + 3 * header)
    }

    @Test func readingMarksAnEntryAsRecentlyUsed() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path)
        cache.storeData(dataCachePayload(seed: 1, count: 100), for: "k")
        await cache.flush()
        let file = folder.path + "/" + cache.filename(for: "k")
        try setModificationDate(of: file, secondsAgo: 3_600)

        #expect(cache.containsData(for: "k"))
        #expect(try modificationDate(of: file) < Date(timeIntervalSinceNow: -3_000))  // a check is not a use
        #expect(cache.data(for: "k") != nil)
        #expect(try modificationDate(of: file) > Date(timeIntervalSinceNow: -600))
    }

    @Test func sweepKeepsTheMostRecentlyReadEntriesUnderTheLimit() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let entry = 10_000 + header
        let cache = try DataCache(path: folder.path, sizeLimit: 20 * entry, sweepInterval: .zero)
        for index in 0..<60 { cache.storeData(dataCachePayload(seed: index, count: 10_000), for: "key-\(index)") }
        await cache.flush()
        #expect(cache.totalSize == 60 * entry)
        // Written an hour ago in index order (file times are too coarse to order fast writes),
        // then the five oldest are read.
        for index in 0..<60 {
            try setModificationDate(of: folder.path + "/" + cache.filename(for: "key-\(index)"), secondsAgo: 3_600 - Double(index))
        }
        for index in 0..<5 { #expect(cache.data(for: "key-\(index)") != nil) }

        await cache.sweep()
        #expect(cache.totalSize <= 20 * entry)
        // Trimmed to 70 % of the limit: the 14 most recently used of the 60 entries.
        let survivors = (0..<60).filter { cache.containsData(for: "key-\($0)") }
        #expect(survivors == Array(0..<5) + Array(51..<60))
        #expect(cache.totalSize == 14 * entry)

        await cache.sweep()  // under the limit: nothing more goes
        #expect(cache.totalSize == 14 * entry)
    }

    @Test func periodicSweepEnforcesTheLimitOnItsOwn() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path, sizeLimit: 200_000, sweepInterval: .milliseconds(100))
        for index in 0..<60 { cache.storeData(dataCachePayload(seed: index, count: 10_000), for: "key-\(index)") }
        await cache.flush()
        // No sweep() call: the writer's timer must do it. The wait is generous, not a speed claim:
        // under a loaded suite Dispatch may serve the timer late.
        #expect(await eventually(120) { cache.totalSize <= 200_000 })
        #expect(cache.totalSize > 0)

        // It keeps sweeping, not just once.
        for index in 60..<120 { cache.storeData(dataCachePayload(seed: index, count: 10_000), for: "key-\(index)") }
        await cache.flush()
        #expect(await eventually(120) { cache.totalSize <= 200_000 })
        #expect(cache.containsData(for: "key-119"))
    }

    @Test func sweepRemovesStaleTemporaryFilesOnly() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let cache = try DataCache(path: folder.path, sweepInterval: .zero)
        let stale = folder.path + "/.tmp-123-dead"
        let fresh = folder.path + "/.tmp-456-busy"  // another process may be writing it right now
        let foreign = folder.path + "/keep.me"
        for file in [stale, fresh, foreign] {
            #expect(FileManager.default.createFile(atPath: file, contents: Data(count: 100)))
        }
        try setModificationDate(of: stale, secondsAgo: 120)
        try setModificationDate(of: foreign, secondsAgo: 120)

        await cache.sweep()
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh))
        #expect(FileManager.default.fileExists(atPath: foreign))
    }

    // MARK: Crash safety

    /// Five rounds on one folder, each writer rewriting the keys the last one wrote and killed in
    /// the middle of a batch; after each, every entry there must be whole. (Measured: with writes
    /// made in place instead of renamed, about one kill in five leaves a truncated entry.)
    @Test func killedWriterNeverLeavesATruncatedEntry() async throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let binary = try #require(dataCacheWriterBinary, "the DataCacheWriter executable is not built")
        let count = 5_000
        let size = 1_000_000  // WriterEntry's pattern is this long
        var indexByName: [String: Int] = [:]
        for round in 1...5 {
            let flushed = try await runAndKillWriter(binary, arguments: [folder.path, "\(count)", "\(size)"])
            #expect(flushed >= 12, "round \(round)")

            let cache = try DataCache(path: folder.path, sweepInterval: .zero)
            if indexByName.isEmpty {
                for index in 0..<count { indexByName[cache.filename(for: "key-\(index)")] = index }
            }
            var served = 0
            for name in folder.entryNames() {
                guard let index = indexByName[name] else {
                    Issue.record("an entry no key explains: \(name)")
                    continue
                }
                let data = try #require(cache.data(for: "key-\(index)"))
                #expect(WriterEntry.verify(data, index: index, size: size), "round \(round): key-\(index) is damaged (\(data.count) bytes)")
                served += 1
            }
            #expect(served >= flushed)
            // Everything the writer reported as flushed is there, whole.
            for index in 0..<flushed {
                let data = cache.data(for: "key-\(index)")
                #expect(data.map { WriterEntry.verify($0, index: index, size: size) } == true, "round \(round): key-\(index)")
            }
        }

        // Whatever temporary files the kills left (maybe none), and one more like them, go once stale.
        let cache = try DataCache(path: folder.path, sweepInterval: .zero)
        let entries = folder.entryNames()
        #expect(FileManager.default.createFile(atPath: folder.path + "/.tmp-1-leftover", contents: Data(count: 10)))
        for name in folder.temporaryNames() { try setModificationDate(of: folder.path + "/" + name, secondsAgo: 300) }
        await cache.sweep()
        #expect(folder.temporaryNames().isEmpty)
        #expect(folder.entryNames() == entries)
    }

    // MARK: Policy

    struct PolicyCase: Sendable, CustomTestStringConvertible {
        let policy: DataCachePolicy
        let hasProcessors: Bool
        let storesOriginal: Bool
        let storesEncoded: Bool
        var testDescription: String { "\(policy) \(hasProcessors ? "with" : "without") processors" }
    }

    static let policyTable: [PolicyCase] = [
        PolicyCase(policy: .storeOriginalData, hasProcessors: false, storesOriginal: true, storesEncoded: false),
        PolicyCase(policy: .storeOriginalData, hasProcessors: true, storesOriginal: true, storesEncoded: false),
        PolicyCase(policy: .storeEncodedImages, hasProcessors: false, storesOriginal: false, storesEncoded: false),
        PolicyCase(policy: .storeEncodedImages, hasProcessors: true, storesOriginal: false, storesEncoded: true),
        PolicyCase(policy: .storeAll, hasProcessors: false, storesOriginal: true, storesEncoded: false),
        PolicyCase(policy: .storeAll, hasProcessors: true, storesOriginal: true, storesEncoded: true),
        PolicyCase(policy: .automatic, hasProcessors: false, storesOriginal: true, storesEncoded: false),
        PolicyCase(policy: .automatic, hasProcessors: true, storesOriginal: false, storesEncoded: true),
    ]

    @Test(arguments: policyTable)
    func policyStoresWhatItShould(_ row: PolicyCase) {
        #expect(row.policy.storesOriginalData(hasProcessing: row.hasProcessors) == row.storesOriginal)
        #expect(row.policy.storesEncodedImage(hasProcessing: row.hasProcessors) == row.storesEncoded)
    }

    @Test func policyTableCoversEveryCase() {
        for policy in DataCachePolicy.allCases {
            #expect(Set(Self.policyTable.filter { $0.policy == policy }.map(\.hasProcessors)) == [false, true])
        }
    }
}

// MARK: - Helpers

/// A fresh folder path under the temporary directory (not created: the cache creates it).
struct DataCacheFolder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-datacache-\(UUID().uuidString)").path

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    func entryNames() -> [String] { names().filter { $0.count == 64 && $0.allSatisfy(\.isHexDigit) } }
    func temporaryNames() -> [String] { names().filter { $0.hasPrefix(".tmp-") } }
}

/// Deterministic bytes that differ with `seed`.
private func dataCachePayload(seed: Int, count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7 &+ ($0 >> 8)) })
}

/// Runs DataCacheWriter until it has printed three `flushed <n>` lines, then SIGKILLs it while it
/// writes the next batch; returns the highest n it printed.
private func runAndKillWriter(_ binary: URL, arguments: [String]) async throws -> Int {
    let process = try ChildProcess(binary.path, arguments, killAfter: .seconds(60))  // in case it never prints
    // A random moment in the next batch, so that the kill samples the whole write cycle rather
    // than always landing while the writer builds its next entries.
    process.send(SIGKILL, after: .microseconds(Int.random(in: 0...4_000))) { $0.filter { $0 == "\n" }.count >= 3 }
    let ended = await process.result()
    #expect(ended.termination == .signalled(SIGKILL))
    return ended.standardOutput.split(separator: "\n").compactMap { Int($0.dropFirst("flushed ".count)) }.max() ?? 0
}

/// Blocks the cache's writer until the returned semaphore is signalled, so that a test can look at
/// staged changes that certainly are not on disk yet.
private func holdWriter(of cache: DataCache) -> DispatchSemaphore {
    let gate = DispatchSemaphore(value: 0)
    let entered = DispatchSemaphore(value: 0)
    cache.worker.execute {
        entered.signal()
        gate.wait()
    }
    entered.wait()
    return gate
}

private func setModificationDate(of path: String, secondsAgo: Double) throws {
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)], ofItemAtPath: path)
}

private func modificationDate(of path: String) throws -> Date {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
}

/// The DataCacheWriter built beside the test bundle.
private var dataCacheWriterBinary: URL? {
    var candidates: [URL] = []
    if let argv0 = CommandLine.arguments.first {
        var folder = URL(fileURLWithPath: argv0).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(folder.appendingPathComponent("DataCacheWriter"))
            folder = folder.deletingLastPathComponent()
        }
    }
    let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(repository.appendingPathComponent(".build/debug/DataCacheWriter"))
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}

/// The check for DataCacheWriter's self-verifying entries (an independent copy of its format,
/// described in Tests/DataCacheWriter/main.swift).
private enum WriterEntry {
    static func verify(_ data: Data, index: Int, size: Int) -> Bool {
        guard data.count >= 24 else { return false }
        let header = [UInt8](data.prefix(24))
        guard header[0..<8].elementsEqual("VGNTDCW1".utf8) else { return false }
        guard littleEndian(header[8..<16]) == UInt64(index), littleEndian(header[16..<24]) == UInt64(data.count) else {
            return false
        }
        guard data.count >= max(size / 2, 24), data.count <= max(size, 24), data.count - 24 <= pattern.count else {
            return false
        }
        // Data against Data: a memcmp, quick even in a debug build.
        return Data(data.dropFirst(24)) == pattern.prefix(data.count - 24)
    }

    /// The writer's xorshift64 stream, as long as the longest entry of the crash test.
    private static let pattern = Data(makePattern(count: 1_000_000))

    private static func makePattern(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        while bytes.count < count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            withUnsafeBytes(of: state.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
