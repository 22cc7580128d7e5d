import Foundation
import Testing
@testable import Vignette
import VignetteSupport

/// The caches' byte gauges count what their entries keep alive, and stay within their caps.
@Suite("Cache gauges: bytes, entries, evictions, limits")
struct CacheGaugeTests {
    let encoding = OutputEncoding.fixed(.jpeg(JPEGOptions()))

    /// An encoded result of `count` bytes.
    func result(_ count: Int) -> EncodedImage {
        EncodedImage(data: Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) }), format: .jpeg, width: 1, height: 1)
    }

    func request(_ index: Int) -> ImageRequest {
        ImageRequest(path: "/images/photo-\(index).jpg", thumbnail: ThumbnailOptions(size: 100 + index))
    }

    @Test("N known results: the byte gauge is the sum of their sizes in whole pages (small ones as they are), plus a bounded key and bookkeeping each")
    func encodedBytes() {
        let cache = EncodedImageCache(costLimit: 64 << 20)
        let sizes = (0..<40).map { $0.isMultiple(of: 2) ? 1_000 + $0 * 37 : 20_000 + $0 * 4_099 }
        for (index, size) in sizes.enumerated() { cache[request(index), encoding] = result(size) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let held = sizes.reduce(0) { $0 + ($1 >= PageBackedData.minimumCount ? ($1 + page - 1) / page * page : $1) }
        let statistics = cache.statistics
        #expect(statistics.entries == sizes.count && statistics.evictions == 0 && statistics.byteLimit == 64 << 20)
        #expect(statistics.bytes >= held, "the bytes held: \(statistics.bytes) < \(held)")
        // Key, Data's storage and the cache's node and index slot (twice: the array and the index
        // grow by doubling): about a KiB an entry.
        let perEntry = (statistics.bytes - held) / sizes.count
        #expect(perEntry >= CacheEntryCost.bookkeeping(key: EncodedImageKey.self, value: EncodedImage.self) && perEntry <= 2_048, "\(perEntry) bytes an entry")
        #expect(statistics.bytes == cache.totalCost)
    }

    @Test("past its cap the cache evicts: the byte gauge stays at most the cap and the evictions are counted")
    func encodedEviction() {
        let cap = 1 << 20
        let cache = EncodedImageCache(costLimit: cap)
        for index in 0..<200 { cache[request(index), encoding] = result(50_000) }
        let statistics = cache.statistics
        #expect(statistics.bytes <= cap && statistics.bytes > cap / 2)
        #expect(statistics.evictions == 200 - statistics.entries && statistics.entries > 0)
    }

    @Test("an image is counted with its pixels, its ICC profile and its header")
    func imageBytes() throws {
        // Adobe RGB: the decoded image keeps the profile its pixels need.
        let data = try Data(contentsOf: URL(fileURLWithPath: Files.fixture("adobergb.jpg")))
        let profiled = try ImageDecoder().decode(data)
        let profile = try #require(profiled.iccProfile)
        #expect(profiled.retainedByteCount >= profiled.byteCount + profile.count)
        let cache = ImageCache(costLimit: 256 << 20)
        cache[ImageCacheKey(request: request(1))] = ImageContainer(image: profiled)
        let statistics = cache.statistics
        #expect(statistics.entries == 1 && statistics.bytes >= profiled.retainedByteCount)
        // Beyond the image: the key (a request and its recipe's processors) and the entry's
        // bookkeeping, about 1.2 KB since recipes carry page, video second, canvas and gain map.
        #expect(statistics.bytes <= profiled.retainedByteCount + 2_048)
    }

    @Test("the disk cache counts its files at open and after writes and sweeps, and its sweeps' deletions")
    func diskStatistics() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = try DataCache(path: folder, sizeLimit: 100_000, sweepInterval: .zero)
        for index in 0..<10 { cache.storeData(Data(repeating: UInt8(index), count: 20_000), for: "key-\(index)") }
        await cache.flush()
        let written = cache.statistics
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: folder).reduce(0) {
            $0 + ((try FileManager.default.attributesOfItem(atPath: folder + "/" + $1)[.size] as? Int) ?? 0)
        }
        #expect(written.entries == 10 && written.bytes == onDisk && written.byteLimit == 100_000)
        await cache.sweep()
        let swept = cache.statistics
        #expect(swept.bytes <= 70_000 && swept.entries == 10 - swept.evictions && swept.evictions > 0)
        let reopened = try DataCache(path: folder, sizeLimit: 100_000, sweepInterval: .zero)
        await reopened.flush()
        #expect(reopened.statistics.bytes == swept.bytes && reopened.statistics.entries == swept.entries)
    }
}
