import Foundation
import Testing
@testable import Vignette

@Suite("Pipeline caches")
struct PipelineCacheTests {
    let path = Files.fixture("baseline.jpg")

    @Test("a memory hit does no I/O and no work")
    func memoryHit() async throws {
        let loader = CountingLoader()
        let blur = CountingProcessor("blur")
        let pipeline = ImagePipeline.testing(loader: loader)
        let request = ImageRequest(path: path, processors: [blur])
        let first = try await pipeline.response(for: request)
        #expect(first.cacheType == nil)
        let second = try await pipeline.response(for: request)
        #expect(second.cacheType == .memory)
        #expect(second.image === first.image)
        #expect(loader.started == 1 && blur.count == 1)
        // Intermediates do not enter the memory cache: the unprocessed image is not there.
        #expect(pipeline.cachedImage(for: ImageRequest(path: path)) == nil)
    }

    @Test("a disk hit of a processed image skips loading, decoding the original and processing")
    func diskHit() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dataCache = try DataCache(path: folder)
        let request = ImageRequest(path: path, processors: [ImageProcessors.Resize(size: 64), CountingProcessor("blur")])
        let writer = ImagePipeline.testing(loader: CountingLoader()) {
            $0.dataCache = dataCache
            $0.imageCache = nil
        }
        let made = try await writer.image(for: request)
        await writer.flushDiskCache()

        let loader = CountingLoader()
        let blur = CountingProcessor("blur")
        var again = request
        again.processors = [ImageProcessors.Resize(size: 64), blur]
        let reader = ImagePipeline.testing(loader: loader) {
            $0.dataCache = try? DataCache(path: folder)
            $0.imageCache = nil
        }
        let response = try await reader.response(for: again)
        #expect(response.cacheType == .disk)
        #expect(loader.started == 0 && blur.count == 0)
        #expect(response.image.width == made.width && response.image.height == made.height)
        #expect(try response.image.perceptualHash().distance(to: made.perceptualHash()) <= 5)
    }

    struct PolicyCase: CustomTestStringConvertible, Sendable {
        let policy: DataCachePolicy
        let processed: Bool
        let storesOriginal: Bool
        let storesProcessed: Bool
        var testDescription: String { "\(policy) \(processed ? "with" : "without") processors" }
    }

    static let policyCases: [PolicyCase] = [
        .init(policy: .storeOriginalData, processed: false, storesOriginal: true, storesProcessed: false),
        .init(policy: .storeOriginalData, processed: true, storesOriginal: true, storesProcessed: false),
        .init(policy: .storeEncodedImages, processed: false, storesOriginal: false, storesProcessed: false),
        .init(policy: .storeEncodedImages, processed: true, storesOriginal: false, storesProcessed: true),
        .init(policy: .storeAll, processed: false, storesOriginal: true, storesProcessed: false),
        .init(policy: .storeAll, processed: true, storesOriginal: true, storesProcessed: true),
        .init(policy: .automatic, processed: false, storesOriginal: true, storesProcessed: false),
        .init(policy: .automatic, processed: true, storesOriginal: false, storesProcessed: true),
    ]

    @Test("each DataCachePolicy stores exactly the keys it should", arguments: policyCases)
    func policy(_ c: PolicyCase) async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dataCache = try DataCache(path: folder)
        let pipeline = ImagePipeline.testing(loader: CountingLoader()) {
            $0.dataCache = dataCache
            $0.dataCachePolicy = c.policy
        }
        let request = ImageRequest(path: path, processors: c.processed ? [ImageProcessors.Resize(size: 32)] : [])
        _ = try await pipeline.image(for: request)
        await pipeline.flushDiskCache()
        #expect(dataCache.containsData(for: DiskKeys.original(request)) == c.storesOriginal)
        if c.processed {  // without processing the processed key is the original's
            #expect(dataCache.containsData(for: DiskKeys.processed(request)) == c.storesProcessed)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
        #expect(files.count == (c.storesOriginal ? 1 : 0) + (c.storesProcessed ? 1 : 0))
    }

    @Test("returnCacheDataDontLoad: served from the disk cache, else dataMissingInCache")
    func cacheOnly() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dataCache = try DataCache(path: folder)
        let loader = CountingLoader()
        let pipeline = ImagePipeline.testing(loader: loader) {
            $0.dataCache = dataCache
            $0.imageCache = nil
            $0.dataCachePolicy = .storeOriginalData
        }
        var request = ImageRequest(path: path)
        request.options = [.returnCacheDataDontLoad]
        do {
            _ = try await pipeline.image(for: request)
            Issue.record("expected dataMissingInCache")
        } catch {
            if case .dataMissingInCache = error {} else { Issue.record("got \(error)") }
        }
        _ = try await pipeline.image(for: ImageRequest(path: path))
        await dataCache.flush()
        _ = try await pipeline.image(for: request)
        #expect(loader.started == 1)
    }
}
