import Foundation
import Testing
import Vignette
import VignetteImgproxy

/// Every operation keeps every frame of an animated GIF or WebP (issue 53): the frame count, the
/// delays and the loop count of the source, through the recipe and the pipeline (the library's,
/// the command's and the server's one path); each frame of a crop, a turn and a padding is that
/// frame made alone as a still.
@Suite("Animations through every operation")
struct AnimatedOperationsTests {
    /// Animated sources: the project's fixtures, and other projects' test images from the shared
    /// corpus when it is there.
    static let sources: [String] = {
        let fixtures = ["animated-loop3.gif", "animated-loop3.webp", "animated.gif", "animated.webp"].map { Files.fixture($0) }
        let corpus = ["rotating-squares.gif", "rotating-squares.webp", "animated-loop-3.gif", "animated-loop-3.webp", "big-height.webp"]
            .compactMap { InfoReferences.corpusFile($0) }
        return fixtures + corpus
    }()

    /// The options of issue 53's list, each given a box small enough for every source.
    static let options = [
        "c:60:50", "c:60:50:sm", "c:60:50:ea", "rs:fill:40:30:1/g:sm", "t:10", "rot:90", "rot:30", "rot:-90", "pd:10", "bl:2", "sh:1",
        "pix:4", "bg:ff0000", "ex:1/rs:fit:200:200", "fl:1:1", "g:obj:face/rs:fill:40:30", "c:0.5:0.5:obj:face", "c:60:50/rot:45/pd:4",
        "t:10/c:40:40:sm/rs:fill:30:30/g:sm",
    ]

    func pipeline() -> ImagePipeline {
        ImagePipeline.testing(loader: FileDataLoader(limits: .untrusted)) { $0.encodedImageCache = nil }
    }

    func made(_ options: String, from path: String, in pipeline: ImagePipeline, watermark: ImageRecipe.WatermarkImage? = nil) async throws -> EncodedImage {
        let recipe = try ImgproxyOptions().recipe(options)
        let request = try recipe.request(for: .file(path), watermark: watermark)
        return try await pipeline.encodedImage(for: request, as: try recipe.encoding()).image
    }

    /// Whether libvips' GIF saver merges equal consecutive frames: cgif in libvips 8.16 (Debian 13) does.
    static let gifSaverMergesFrames: Bool = {
        let parts = (ImagingRuntime.libraryVersions["libvips"] ?? "").split(separator: ".").compactMap { Int($0) }
        return parts.count >= 2 && parts[0] == 8 && parts[1] >= 16
    }()

    @Test("each operation keeps every frame, its delay and the loop count, in GIF and in WebP", arguments: options)
    func keepsFrames(option: String) async throws {
        let pipeline = pipeline()
        for path in Self.sources {
            let source = try #require(try ImageDecoder().animationInfo(Data(contentsOf: URL(fileURLWithPath: path))))
            for format in ["gif", "webp"] {
                let result = try await made("\(option)/f:\(format)", from: path, in: pipeline)
                let info = try ImageDecoder().animationInfo(result.data)
                if format == "gif", Self.gifSaverMergesFrames {
                    // libvips 8.16's GIF saver (cgif) merges consecutive frames that are equal once
                    // quantised, adding their delays: each written delay is the sum of a run of
                    // the source's, and the whole play lasts as long. When every frame is equal
                    // once quantised, one frame is left: a still GIF.
                    guard let info else {
                        #expect(try ImageDecoder().probe(result.data).pages == 1, "\(option) of \(path) as gif")
                        continue
                    }
                    #expect(info.loopCount == source.loopCount, "\(option) of \(path) as gif")
                    let written = info.delays
                    var runs: [Int] = [], next = 0
                    for delay in written {
                        var sum = 0
                        while next < source.delays.count, sum < delay { sum += source.delays[next] / 10 * 10; next += 1 }
                        runs.append(sum)
                    }
                    #expect(runs == written && next == source.delays.count, "\(option) of \(path) as gif: \(written) from \(source.delays)")
                    continue
                }
                #expect(info?.loopCount == source.loopCount, "\(option) of \(path) as \(format)")
                #expect(info?.frameCount == source.frameCount, "\(option) of \(path) as \(format)")
                if format == "webp" {
                    #expect(info?.delays == source.delays, "\(option) of \(path) as \(format)")
                } else {
                    // GIF keeps centiseconds.
                    #expect(info?.delays == source.delays.map { $0 / 10 * 10 }, "\(option) of \(path) as \(format)")
                }
            }
        }
    }

    @Test("a watermark is drawn on every frame, and every frame is kept")
    func watermark() async throws {
        let mark = try ImageRecipe.WatermarkImage(data: Data(contentsOf: URL(fileURLWithPath: Files.fixture("alpha.png"))))
        let path = Files.fixture("animated-loop3.gif")
        let result = try await made("c:100:80/wm:0.5:ce/f:webp", from: path, in: pipeline(), watermark: mark)
        let back = try ImageDecoder().decodeAnimation(result.data)
        #expect(back.frameCount == 5 && back.delays == [100, 200, 300, 400, 500] && back.width == 100 && back.height == 80)
    }

    @Test("each frame of a crop, a turn and a padding is that frame made alone as a still", arguments: [
        "c:60:50", "c:60:50:nowe", "c:60:50/rs:fit:30:30", "rot:90", "rot:30", "rot:45/bg:00ff00", "pd:10", "pd:10/bg:0000ff", "c:50:50/rot:30/pd:5",
    ])
    func framesAreStills(option: String) async throws {
        let pipeline = pipeline()
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for path in Self.sources {
            let source = try ImageDecoder().decodeAnimation(Data(contentsOf: URL(fileURLWithPath: path)))
            // WebP at q:100: the frames compared differ from the stills by the codec's error only.
            let animated = try ImageDecoder().decodeAnimation(try await made("\(option)/f:webp/q:100", from: path, in: pipeline).data)
            #expect(animated.frameCount == source.frameCount, "\(option) of \(path)")
            for (index, frame) in source.frames.enumerated() {
                let still = folder + "/frame-\(index).png"
                try ImageEncoder.encode(frame, as: .png(PNGOptions())).write(to: URL(fileURLWithPath: still))
                let made = try ImageDecoder().decode(try await made("\(option)/f:png", from: still, in: pipeline).data)
                let kept = animated.frames[index]
                #expect(kept.width == made.width && kept.height == made.height, "\(option) of \(path), frame \(index)")
                // Within lossy WebP's error at q:100 (4:2:0 chroma: a mean of 1–3, edges up to ~30 a band).
                // dHash is unsteady on a nearly flat window (a transparent corner): there the pixels decide.
                let difference = try Self.meanDifference(kept, made)
                #expect(difference < 6, "\(option) of \(path), frame \(index)")
                #expect(try kept.perceptualHash().distance(to: try made.perceptualHash()) <= 8 || difference < 3, "\(option) of \(path), frame \(index)")
            }
        }
    }

    @Test("frames past the frame limit are dropped (as imgproxy drops them), the others kept with their delays")
    func frameLimit() async throws {
        let path = Files.fixture("animated-loop3.gif")
        let result = try await made("maf:3/rs:fit:80:80/f:webp", from: path, in: pipeline())
        let back = try ImageDecoder().decodeAnimation(result.data)
        #expect(back.frameCount == 3 && back.delays == [100, 200, 300] && back.loopCount == 3)
        let cropped = try ImageDecoder().decodeAnimation(try await made("maf:2/c:50:50/f:gif", from: path, in: pipeline()).data)
        #expect(cropped.frameCount == 2 && cropped.width == 50)
        // One frame kept is a still.
        let one = try await made("maf:1/c:50:50/f:webp", from: path, in: pipeline())
        #expect(try ImageDecoder().probe(one.data).pages == 1)
    }

    @Test("a frame over the frame-resolution limit is refused; stills are not held to it")
    func frameResolution() async throws {
        let path = Files.fixture("animated-loop3.gif")  // 160×120 frames
        await #expect(throws: ImagePipelineError.self) { try await made("mafr:0.01/c:50:50/f:webp", from: path, in: pipeline()) }
        let still = try await made("mafr:0.01/c:50:50/f:png", from: path, in: pipeline())
        #expect(still.width == 50 && still.height == 50)
    }

    @Test("a trim cuts only what is background in every frame: the union of the frames' boxes")
    func trimUnion() async throws {
        // Frames whose content sits at different places on a white canvas.
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func frame(dotAt x: Int, _ y: Int) throws -> Image {
            var bytes = [UInt8](repeating: 255, count: 100 * 80 * 3)
            for row in y..<y + 10 { for column in x..<x + 10 { bytes.replaceSubrange((row * 100 + column) * 3..<(row * 100 + column) * 3 + 3, with: [200, 0, 0]) } }
            return try Image(pixels: PixelBuffer(width: 100, height: 80, bands: 3, bytes: bytes))
        }
        let frames = try [(5, 5), (70, 20), (40, 60)].map { try frame(dotAt: $0.0, $0.1) }
        let animation = try Animation(frames: frames, delays: [50, 60, 70], loopCount: 0)
        let path = folder + "/dots.gif"
        try ImageEncoder.encode(animation, as: .gif(GIFOptions())).write(to: URL(fileURLWithPath: path))
        let trimmed = try ImageDecoder().decodeAnimation(try await made("t:10/f:webp/q:100", from: path, in: pipeline()).data)
        // The union of (5,5)–(15,15), (70,20)–(80,30) and (40,60)–(50,70): (5,5)–(80,70).
        #expect(trimmed.frameCount == 3 && trimmed.width == 75 && trimmed.height == 65)
        #expect(trimmed.delays == [50, 60, 70])
    }

    @Test("an attention crop cuts every frame with one window, placed on the first frame")
    func oneAttentionWindow() async throws {
        guard let path = InfoReferences.corpusFile("animated-loop-3.gif") else { return }
        let pipeline = pipeline()
        let animated = try ImageDecoder().decodeAnimation(try await made("c:120:120:sm/f:webp/q:100", from: path, in: pipeline).data)
        let source = try ImageDecoder().decodeAnimation(Data(contentsOf: URL(fileURLWithPath: path)))
        let first = folder(for: source)
        defer { try? FileManager.default.removeItem(atPath: first.folder) }
        let still = try ImageDecoder().decode(try await made("c:120:120:sm/f:png", from: first.path, in: pipeline).data)
        #expect(try animated.frames[0].perceptualHash().distance(to: try still.perceptualHash()) <= 3)
    }

    /// The first frame of `animation` written as a PNG in a folder of its own.
    func folder(for animation: Animation) -> (folder: String, path: String) {
        let folder = (try? Files.temporaryDirectory()) ?? NSTemporaryDirectory()
        let path = folder + "/first.png"
        try? ImageEncoder.encode(animation.frames[0], as: .png(PNGOptions())).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    /// The mean absolute difference of two images' bytes, both flattened onto white and brought to
    /// three bands first; 255 when their sizes differ.
    static func meanDifference(_ a: Image, _ b: Image) throws -> Double {
        let (x, y) = (try a.flattened().pixels(), try b.flattened().pixels())
        guard x.width == y.width, x.height == y.height, x.bands == y.bands, !x.bytes.isEmpty else { return 255 }
        var total = 0
        for index in x.bytes.indices { total += abs(Int(x.bytes[index]) - Int(y.bytes[index])) }
        return Double(total) / Double(x.bytes.count)
    }
}
