import Foundation
import Testing
@testable import Vignette
import TestTiming

@Suite("Encoded results: bytes from the pipeline, cached and coalesced")
struct EncodedImageTests {
    let path = Files.fixture("baseline.jpg")
    let thumbnail = ThumbnailOptions(size: 128)

    @Test("bytes in the format asked for, the result's size; a memory hit has no decode and no encode")
    func memoryHit() async throws {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let request = ImageRequest(path: path, thumbnail: thumbnail)
        let first = try await pipeline.encodedImage(for: request, as: .fixed(.webp(WebPOptions(quality: 70))))
        #expect(first.cacheType == nil)
        #expect(first.image.format == .webp && first.image.width == 128 && first.image.height == 96)
        let info = try ImageDecoder().probe(first.image.data)
        #expect(info.format == .webp && info.width == 128 && info.height == 96)
        let decodes = pipeline.decoding.startedCount, encodes = pipeline.encoding.startedCount
        let second = try await pipeline.encodedImage(for: request, as: .fixed(.webp(WebPOptions(quality: 70))))
        #expect(second.cacheType == .memory && second.image == first.image)
        #expect(pipeline.decoding.startedCount == decodes && pipeline.encoding.startedCount == encodes)
        // Another encoding of the same image is another result.
        let jpeg = try await pipeline.encodedImage(for: request, as: .fixed(.jpeg(JPEGOptions(quality: 60))))
        #expect(jpeg.cacheType == nil && jpeg.image.format == .jpeg)
        // With no disk cache nothing goes to the disk stage (a thread hand-over each way for nothing).
        #expect(pipeline.configuration.dataCache == nil && pipeline.disk.startedCount == 0)
    }

    @Test("the encoded cache keeps a large result in pages of its own (a copy, page-aligned), byte for byte; a small one as it is")
    func pageBackedEntries() throws {
        let big = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let small = Data(repeating: 7, count: 100)
        let address = { (data: Data) in data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) } }
        let copy = PageBackedData.copy(big)
        #expect(copy == big)
        #expect(address(copy) != address(big) && address(copy) % 4096 == 0)
        #expect(address(PageBackedData.copy(small)) == address(small))

        let cache = EncodedImageCache(costLimit: 1 << 20)
        let request = ImageRequest(path: path, thumbnail: thumbnail)
        let encoding = OutputEncoding.fixed(.jpeg(JPEGOptions()))
        cache[request, encoding] = EncodedImage(data: big, format: .jpeg, width: 1, height: 1)
        let stored = try #require(cache[request, encoding])
        #expect(stored.data == big && address(stored.data) % 4096 == 0)
        // Counted in whole pages, with its key and bookkeeping (`CacheEntryCost`).
        #expect(cache.totalCost >= PageBackedData.footprint(ofCount: big.count) && cache.totalCost < big.count + 8192)
    }

    @Test("a thumbnail's bytes are the Thumbnailer's one-pass bytes, and the same picture as encoding the decoded thumbnail",
          arguments: ["baseline.jpg", "alpha.png", "orientation-6.jpg"])
    func onePassBytes(fixture: String) async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Files.fixture(fixture)))
        let encoding = OutputEncoding.jpegOrPNG(quality: 80)
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let bytes = try await pipeline.encodedImage(for: ImageRequest(path: Files.fixture(fixture), thumbnail: thumbnail), as: encoding).image
        let direct = try Thumbnailer(options: thumbnail).encodedThumbnail(data) { encoding.format(for: $0) }
        #expect(bytes.data == direct.data)
        #expect(bytes.width == direct.thumbnail.image.width && bytes.height == direct.thumbnail.image.height)
        // A JPEG thumbnail of a JPEG is written from its Y/Cb/Cr planes (the planar JPEG route: chroma
        // resampled straight to 4:2:0, libjpeg-turbo's encoder), so its bytes differ from libvips'
        // encoding of the RGB thumbnail; the picture is the same.
        let decoded = try Thumbnailer(options: thumbnail).thumbnail(data).image
        let reencoded = try ImageEncoder.encode(decoded, as: encoding.format(for: decoded))
        let (a, b) = (try ImageDecoder(limits: .unlimited).decode(reencoded), try ImageDecoder(limits: .unlimited).decode(bytes.data))
        #expect(a.width == b.width && a.height == b.height && a.bands == b.bands)
        #expect(try a.perceptualHash().distance(to: b.perceptualHash()) <= 1)
        if fixture.hasSuffix(".png") { #expect(reencoded == bytes.data) }
    }

    @Test("100 concurrent equal AVIF requests: one load, one decode and encode (one libvips pass)")
    func coalesced() async throws {
        let gate = Gate()
        let loader = CountingLoader(gate: gate)
        let pipeline = ImagePipeline.testing(loader: loader)
        let request = ImageRequest(path: path, thumbnail: thumbnail)
        let results = await withTaskGroup(of: EncodedImage?.self) { group in
            for _ in 0..<100 {
                group.addTask { try? await pipeline.encodedImage(for: request, as: .fixed(.avif(HEIFOptions()))).image }
            }
            #expect(await eventually { loader.started == 1 })
            try? await Task.sleep(for: .milliseconds(50))
            gate.open()
            var all: [EncodedImage?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 100 && results.allSatisfy { $0 != nil })
        #expect(Set(results.compactMap { $0?.data }).count == 1)
        #expect(loader.started == 1)
        // A thumbnail with no processors is decoded, resized and encoded in one job on a decoding thread.
        #expect(pipeline.decoding.startedCount == 1)
        #expect(pipeline.encoding.startedCount == 0)
    }

    @Test("a disk hit comes from another pipeline with no load, no decode, no encode")
    func diskHit() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let request = ImageRequest(path: path, thumbnail: thumbnail)
        let writer = ImagePipeline.testing(loader: CountingLoader()) { $0.dataCache = try? DataCache(path: folder) }
        let made = try await writer.encodedImage(for: request, as: .jpegOrPNG())
        await writer.flushDiskCache()
        let loader = CountingLoader()
        let reader = ImagePipeline.testing(loader: loader) { $0.dataCache = try? DataCache(path: folder) }
        let found = try await reader.encodedImage(for: request, as: .jpegOrPNG())
        #expect(found.cacheType == .disk && found.image == made.image)
        #expect(loader.started == 0 && reader.decoding.startedCount == 0)
        #expect(reader.encoding.startedCount == 0)
        #expect(reader.disk.startedCount == 1)  // the disk read and header probe, on the disk stage
    }

    @Test("an animation the encoding keeps: every frame through the processors, loaded once, one decode, kept on disk like a still")
    func animation() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = ThumbnailOptions(size: 80)
        options.frames = .all
        let request = ImageRequest(path: Files.fixture("animated-loop3.gif"), processors: [ImageProcessors.Rotate(degrees: 90)], thumbnail: options)
        // JPEG or PNG for stills, animated WebP for animations (what `vignette thumbnail --format auto` asks).
        let encoding = OutputEncoding.jpegOrPNG().keepingAnimation(as: .webp(WebPOptions()))
        #expect(encoding != .jpegOrPNG())
        let loader = CountingLoader()
        let writer = ImagePipeline.testing(loader: loader) { $0.dataCache = try? DataCache(path: folder) }
        let made = try await writer.encodedImage(for: request, as: encoding)
        #expect(made.cacheType == nil && made.image.format == .webp && made.image.width == 60 && made.image.height == 80)
        let frames = try ImageDecoder().decodeAnimation(made.image.data)
        #expect(frames.frameCount == 5 && frames.loopCount == 3 && frames.width == 60 && frames.height == 80)
        #expect(loader.started == 1 && writer.decoding.startedCount == 1 && writer.processing.startedCount == 0)
        await writer.flushDiskCache()
        let reader = ImagePipeline.testing(loader: CountingLoader()) { $0.dataCache = try? DataCache(path: folder) }
        let found = try await reader.encodedImage(for: request, as: encoding)
        #expect(found.cacheType == .disk && found.image == made.image && reader.decoding.startedCount == 0)
        // A still through the same encoding is a still JPEG; an encoding that keeps no animation
        // writes the first frame.
        let still = try await writer.encodedImage(
            for: ImageRequest(path: Files.fixture("still.gif"), processors: [ImageProcessors.Rotate(degrees: 90)], thumbnail: options), as: encoding)
        #expect(still.image.format == .jpeg)
        let first = try await writer.encodedImage(for: request, as: .jpegOrPNG())
        #expect(first.image.format == .jpeg && first.image.width == 60 && first.image.height == 80)
    }

    @Test("a choice made per image: PNG for alpha, JPEG otherwise")
    func choice() async throws {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let opaque = try await pipeline.encodedImage(for: ImageRequest(path: path, thumbnail: thumbnail), as: .jpegOrPNG())
        let alpha = try await pipeline.encodedImage(for: ImageRequest(path: Files.fixture("alpha.png"), thumbnail: thumbnail), as: .jpegOrPNG())
        #expect(opaque.image.format == .jpeg && alpha.image.format == .png)
    }

    @Test("an encoder failure is a typed encodingFailed")
    func encoderFailure() async {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        do {
            _ = try await pipeline.encodedImage(for: ImageRequest(path: path, thumbnail: thumbnail), as: .fixed(.jpeg(JPEGOptions(quality: 500))))
            Issue.record("encoded with quality 500")
        } catch {
            guard case .encodingFailed = error else { Issue.record("\(error)"); return }
            #expect(error.imagingError?.kind == .invalidArgument)
        }
    }

    @Test("a bad source is a typed decoding failure with its kind")
    func badSource() async {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        do {
            _ = try await pipeline.encodedImage(for: ImageRequest(path: Files.fixture("hostile-wide16.png"), thumbnail: thumbnail), as: .jpegOrPNG())
            Issue.record("encoded a hostile file")
        } catch {
            #expect(error.imagingError?.kind == .limitExceeded)
        }
    }

    @Test("encoding ids name every option")
    func identifiers() {
        #expect(OutputEncoding.fixed(.jpeg(JPEGOptions(quality: 80))) != .fixed(.jpeg(JPEGOptions(quality: 81))))
        #expect(OutputEncoding.fixed(.avif(HEIFOptions(speed: 8))) != .fixed(.avif(HEIFOptions(speed: 9))))
        #expect(OutputEncoding.fixed(.webp(WebPOptions())) == .fixed(.webp(WebPOptions())))
    }
}
