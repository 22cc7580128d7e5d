import ChildProcess
import Foundation
import Testing
@testable import Vignette
import VignetteImgproxy

/// Gain maps kept through JPEG results (Ultra HDR: hdrgm XMP + MPF): checked against ExifTool (the
/// index and the metadata as it reads them) and against an Ultra HDR reconstruction written from
/// the specification in Python (`ultrahdr_reference.py`, NumPy and Pillow from .venv-test): HDR
/// from the result against HDR from the source taken through the same geometry, in linear light.
@Suite("HDR gain maps: kept in JPEG results with the image's geometry")
struct GainMapTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ultrahdr_reference.py").path
    static let corpusFile = Files.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus/gain-map.jpg").path

    /// .venv-test's Python when it has NumPy and Pillow (`Scripts/test-venv.sh`).
    static let python: String? = {
        let venv = Files.repository.appendingPathComponent(".venv-test/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: venv) else { return nil }
        return venv
    }()

    static let exiftool: String? = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func run(_ executable: String, _ arguments: [String]) async throws -> [UInt8] {
        let process = try ChildProcess(executable, arguments, environment: ["PATH": "/usr/bin:/bin"], killAfter: .seconds(300))
        let result = await process.result()
        try #require(result.termination == .exited(0), Comment(rawValue: "\(executable) failed: \(String(decoding: result.errorOutput.suffix(2000), as: UTF8.self))"))
        return result.output
    }

    /// The generated sources (every EXIF orientation; gain maps at 1/2 and 1/4; one RGB gain map), in a new folder.
    static func generated() async throws -> (folder: String, names: [String]) {
        let python = try #require(python, "needs .venv-test (Scripts/test-venv.sh) with NumPy and Pillow")
        let folder = try Files.temporaryDirectory()
        let output = try await run(python, [script, "make", folder])
        return (folder, try JSONDecoder().decode([String].self, from: Data(output)))
    }

    /// `recipe`'s result for the file at `path`, through a pipeline.
    static func result(_ path: String, _ recipe: ImageRecipe) async throws -> EncodedImage {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        return try await pipeline.encodedImage(for: recipe.request(for: .file(path)), as: recipe.encoding()).image
    }

    struct PSNRCase: Codable {
        var source: String
        var result: String
        var crop: [Int]?
        var rotate: Int?
        var flip: Bool?
        var flop: Bool?
    }

    struct PSNR: Codable {
        var psnr: Double
        var peak: Double
        var gainMap: [Int]
        var result: [Int]
    }

    static func psnr(_ cases: [PSNRCase]) async throws -> [PSNR] {
        let python = try #require(python)
        let file = try Files.temporaryDirectory() + "/cases.json"
        try JSONEncoder().encode(cases).write(to: URL(fileURLWithPath: file))
        return try JSONDecoder().decode([PSNR].self, from: Data(try await run(python, [script, "psnr", file])))
    }

    /// The gain map of a result, and its size against the size the source's ratio gives.
    static func checkGainMapSize(source: Data, result: EncodedImage) throws {
        let from = try #require(try GainMapJPEG(source)), kept = try #require(try GainMapJPEG(result.data))
        let orientation = try ImageDecoder().probe(source).orientation
        let expected = from.gainMapSize(forResult: PixelSize(width: result.width, height: result.height), transposed: orientation >= 5)
        #expect(kept.gainMapSize == expected, "gain map \(kept.gainMapSize), expected \(expected) for \(result.width)x\(result.height)")
        #expect(kept.primarySize == PixelSize(width: result.width, height: result.height))
    }

    @Test("generated sources, every orientation, 1/2 and 1/4 gain maps, crops: the size by the ratio, HDR within 35 dB")
    func generatedSources() async throws {
        guard Self.python != nil else { return }
        let (folder, names) = try await Self.generated()
        var cases: [PSNRCase] = []
        for name in names {
            let source = folder + "/" + name
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            var variants: [(String, ImageRecipe, [Int]?)] = [("fit", ImageRecipe(width: 200, height: 200), nil)]
            if name.hasSuffix("-r2.jpg") || name.contains("o6") {
                variants.append(("crop", try ImgproxyOptions().recipe("rs:fit:150:150/c:300:200:nowe"), [0, 0, 300, 200]))
            }
            for (label, recipe, crop) in variants {
                let result = try await Self.result(source, recipe)
                try Self.checkGainMapSize(source: data, result: result)
                let out = folder + "/\(label)-" + name
                try result.data.write(to: URL(fileURLWithPath: out))
                cases.append(PSNRCase(source: source, result: out, crop: crop))
            }
        }
        let measured = try await Self.psnr(cases)
        for (measured, test) in zip(measured, cases) {
            #expect(measured.psnr >= 35, "\(test.result): \(measured.psnr) dB")
        }
        print("gain maps kept: \(cases.count) results, HDR PSNR \(measured.map(\.psnr).min() ?? 0)–\(measured.map(\.psnr).max() ?? 0) dB")
    }

    @Test("turns and mirrors after the resize: the gain map turned with the image, HDR within 35 dB; extend, padding and dpr: the gain map at the canvas' size by the ratio")
    func geometryAfterTheResize() async throws {
        guard Self.python != nil else { return }
        let (folder, names) = try await Self.generated()
        let picked = try #require(names.first { $0.contains("o6") && $0.hasSuffix("-r2.jpg") } ?? names.first)
        let source = folder + "/" + picked
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        var cases: [PSNRCase] = []
        for (rotation, flip, flop) in [(90, false, false), (180, true, false), (270, false, true), (0, true, true)] {
            var recipe = ImageRecipe(width: 160, height: 120)
            recipe.rotation = Double(rotation)
            recipe.flipVertically = flip
            recipe.flipHorizontally = flop
            let result = try await Self.result(source, recipe)
            try Self.checkGainMapSize(source: data, result: result)
            let out = folder + "/turn\(rotation)-\(flip)-\(flop)-" + picked
            try result.data.write(to: URL(fileURLWithPath: out))
            cases.append(PSNRCase(source: source, result: out, rotate: rotation, flip: flip, flop: flop))
        }
        let measured = try await Self.psnr(cases)
        for (measured, test) in zip(measured, cases) {
            #expect(measured.psnr >= 35, "\(test.result): \(measured.psnr) dB")
        }
        print("gain maps turned and mirrored: HDR PSNR \(measured.map(\.psnr).min() ?? 0)–\(measured.map(\.psnr).max() ?? 0) dB")
        // The canvas after the resize: extended to the box, padded, at dpr 2; the gain map covers it by the ratio.
        for options in ["rs:fit:200:200/ex:1", "rs:fit:150:150/pd:10:20:30:40", "rs:fit:100:100/dpr:2/ex:1/pd:5"] {
            let result = try await Self.result(source, try ImgproxyOptions().recipe(options))
            try Self.checkGainMapSize(source: data, result: result)
            let kept = try #require(try GainMapJPEG(result.data), "\(options): the gain map was dropped")
            #expect(kept.primarySize == PixelSize(width: result.width, height: result.height), "\(options)")
        }
    }

    @Test("the corpus' Ultra HDR photo at 800 px: the gain map kept at 1/4, HDR within 35 dB, ExifTool reads the source's MPF and hdrgm fields")
    func corpusPhoto() async throws {
        guard FileManager.default.fileExists(atPath: Self.corpusFile) else {
            print("skipped: \(Self.corpusFile) is absent")
            return
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.corpusFile))
        let result = try await Self.result(Self.corpusFile, ImageRecipe(width: 800, height: 800))
        #expect(result.width == 800 && result.height == 450)
        try Self.checkGainMapSize(source: data, result: result)
        let out = try Files.temporaryDirectory() + "/gain-map-800.jpg"
        try result.data.write(to: URL(fileURLWithPath: out))
        if Self.python != nil {
            let measured = try #require(try await Self.psnr([PSNRCase(source: Self.corpusFile, result: out)]).first)
            #expect(measured.psnr >= 35, "\(measured.psnr) dB")
            #expect(measured.gainMap == [200, 113])
            print("gain-map.jpg at 800 px: HDR PSNR \(measured.psnr) dB")
        }
        try await Self.expectSameMetadata(source: Self.corpusFile, result: out)
    }

    @Test("ExifTool reads a generated source's MPF and hdrgm fields in its result, sizes and offsets apart")
    func exifToolGenerated() async throws {
        guard Self.python != nil else { return }
        let (folder, _) = try await Self.generated()
        let source = folder + "/gain-map-o6-r4.jpg"
        let out = folder + "/result.jpg"
        try (try await Self.result(source, ImageRecipe(width: 120, height: 120))).data.write(to: URL(fileURLWithPath: out))
        try await Self.expectSameMetadata(source: source, result: out)
    }

    /// ExifTool's MPF and XMP fields of the two files' primaries and of their gain maps are equal,
    /// but for lengths and offsets; the result's lengths are its own.
    static func expectSameMetadata(source: String, result: String) async throws {
        guard let exiftool else {
            print("skipped: exiftool is absent (libimage-exiftool-perl)")
            return
        }
        func fields(_ arguments: [String]) async throws -> [String: String] {
            let output = try await run(exiftool, ["-j", "-G", "-a"] + arguments)
            let objects = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [[String: Any]])
            let object = try #require(objects.first)
            return object.filter { $0.key.hasPrefix("MPF:") || $0.key.hasPrefix("XMP:") }.mapValues { "\($0)" }
        }
        let varying: Set = ["MPF:MPImageLength", "MPF:MPImageStart", "MPF:MPImage2", "XMP:DirectoryItemLength"]
        let (before, after) = (try await fields([source]), try await fields([result]))
        #expect(!before.isEmpty && before.keys.contains("MPF:NumberOfImages") && before.keys.contains("XMP:Version"))
        #expect(before.filter { !varying.contains($0.key) } == after.filter { !varying.contains($0.key) })
        let resultSize = try FileManager.default.attributesOfItem(atPath: result)[.size] as? Int
        let gainMapLength = after["MPF:MPImageLength"].flatMap { Int($0) }
        #expect(gainMapLength != nil && after["XMP:DirectoryItemLength"] == after["MPF:MPImageLength"])
        #expect(after["MPF:MPImageStart"].flatMap { Int($0) }.map { $0 + (gainMapLength ?? 0) } == resultSize)
        // The gain maps' own metadata (hdrgm), as ExifTool extracts them.
        let folder = try Files.temporaryDirectory()
        for (file, name) in [(source, "source"), (result, "result")] {
            try Data(try await run(exiftool, ["-b", "-MPImage2", file])).write(to: URL(fileURLWithPath: "\(folder)/\(name)-gain-map.jpg"))
        }
        let (sourceGainMap, resultGainMap) = (try await fields(["\(folder)/source-gain-map.jpg"]), try await fields(["\(folder)/result-gain-map.jpg"]))
        #expect(sourceGainMap.keys.contains("XMP:GainMapMax") && sourceGainMap == resultGainMap)
    }

    @Test("ph:0 and formats other than JPEG give the SDR image alone; a source without a gain map is unchanged by the switch")
    func switchAndFormats() async throws {
        guard Self.python != nil else { return }
        let (folder, _) = try await Self.generated()
        let source = folder + "/gain-map-o1-r2.jpg"
        let off = try await Self.result(source, ImgproxyOptions().recipe("rs:fit:200:200/ph:0"))
        #expect(off.format == .jpeg && !GainMapJPEG.mayHaveGainMap(off.data))
        let on = try await Self.result(source, ImgproxyOptions().recipe("rs:fit:200:200/ph:1"))
        #expect(GainMapJPEG.mayHaveGainMap(on.data))
        // The primary is the SDR result, byte for byte, but for the segments added to it.
        let kept = try #require(try GainMapJPEG(on.data))
        #expect(on.data.count > off.data.count + kept.gainMap.count)
        for format in ["webp", "png", "avif"] {
            let other = try await Self.result(source, ImgproxyOptions().recipe("rs:fit:200:200/f:\(format)"))
            #expect(other.format.rawValue == format && !GainMapJPEG.mayHaveGainMap(other.data))
        }
    }

    @Test("the Fixtures' JPEG results are the same bytes with the gain-map switch on and off")
    func fixturesUnchanged() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Files.repository.appendingPathComponent("Fixtures").path).sorted()
        var compared = 0
        for name in names where !name.hasSuffix(".sh") && !name.hasSuffix(".md") && !name.hasSuffix(".tsv") {
            for options in ["rs:fit:160:160/f:jpg", "rs:fill:120:90/rot:90/f:jpg", "rs:fit:100:100/c:0.5:0.5/ex:1/f:jpg"] {
                var recipe = try ImgproxyOptions().recipe(options)
                let on = try? await Self.result(Files.fixture(name), recipe)
                recipe.keepGainMap = false
                let off = try? await Self.result(Files.fixture(name), recipe)
                #expect(on?.data == off?.data, "\(name) \(options)")
                if on != nil { compared += 1 }
            }
        }
        #expect(compared > 40)
    }

    @Test("a lying MPF index (an offset past the end) or a broken gain map never fails the result: the SDR image alone")
    func brokenGainMaps() async throws {
        guard Self.python != nil else { return }
        let (folder, _) = try await Self.generated()
        let source = folder + "/gain-map-o1-r2.jpg"
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let sdr = try await Self.result(source, ImgproxyOptions().recipe("rs:fit:200:200/ph:0"))
        let container = try #require(try GainMapJPEG(data))
        let gainMapStart = data.count - container.gainMap.count
        var lying = [UInt8](data), cutShort = [UInt8](data), notAJPEG = [UInt8](data)
        // The second entry's offset (big-endian, the last 16 bytes of the index, bytes 8–11) made huge.
        let entry = try #require(GainMapMetadata.find(Array("MPF".utf8) + [0], in: lying)) + 4 + 50 + 16
        lying.replaceSubrange((entry + 8)..<(entry + 12), with: [0x7F, 0xFF, 0xFF, 0xFF])
        cutShort.removeLast(container.gainMap.count / 2)
        notAJPEG.replaceSubrange(gainMapStart..<(gainMapStart + 2), with: [0, 0])
        var broken = [UInt8](data)
        // The gain map's scan data overwritten: its header parses, its pixels do not.
        broken.replaceSubrange((broken.count - 400)..<(broken.count - 2), with: [UInt8](repeating: 0xFF, count: 398))
        for (label, bytes) in [("lying", lying), ("cut short", cutShort), ("not a JPEG", notAJPEG), ("broken", broken)] {
            let path = folder + "/\(label).jpg"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let result = try await Self.result(path, ImgproxyOptions().recipe("rs:fit:200:200"))
            #expect(result.format == .jpeg && result.width == sdr.width && result.height == sdr.height, "\(label)")
            #expect(!GainMapJPEG.mayHaveGainMap(result.data) || label == "broken", "\(label)")
        }
    }

    @Test("MPF and hdrgm parsing: the corpus' index and values, attributes and sequences, broken metadata refused")
    func parsing() throws {
        let seq = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:g="http://ns.adobe.com/hdr-gain-map/1.0/" g:Version="1.0" g:HDRCapacityMax="2">
            <g:GainMapMax><rdf:Seq><rdf:li>1</rdf:li><rdf:li>2</rdf:li><rdf:li> 3 </rdf:li></rdf:Seq></g:GainMapMax>
            <g:Gamma>1.5</g:Gamma></rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let metadata = try #require(try GainMapMetadata(xmp: seq))
        #expect(metadata.gainMapMax == [1, 2, 3] && metadata.gamma == [1.5] && metadata.hdrCapacityMax == 2 && metadata.offsetSDR == [1.0 / 64])
        #expect(try GainMapMetadata(xmp: "<x:xmpmeta/>") == nil)
        #expect(throws: ImagingError.self) { try GainMapMetadata(xmp: seq.replacingOccurrences(of: "<g:Gamma>1.5", with: "<g:Gamma>-1")) }
        #expect(throws: ImagingError.self) { try GainMapMetadata(xmp: seq.replacingOccurrences(of: "g:HDRCapacityMax=\"2\"", with: "")) }
        #expect(throws: ImagingError.self) { try GainMapMetadata(xmp: seq.replacingOccurrences(of: "<rdf:li>1</rdf:li>", with: "<rdf:li>x</rdf:li>")) }
        let index = MultiPictureIndex(littleEndian: true, version: Array("0100".utf8), entries: [
            .init(attribute: 0x030000, size: 1000, offset: 0, dependent1: 0, dependent2: 0),
            .init(attribute: 0, size: 200, offset: 900, dependent1: 0, dependent2: 0),
        ])
        #expect(try MultiPictureIndex(payload: index.payload[...]) == index)
        var wrong = index.payload
        wrong[MultiPictureIndex.headerOffset] = 0x41
        #expect(throws: ImagingError.self) { try MultiPictureIndex(payload: wrong[...]) }
        #expect(throws: ImagingError.self) { try MultiPictureIndex(payload: index.payload.dropLast(8)) }
        guard FileManager.default.fileExists(atPath: Self.corpusFile) else { return }
        let corpus = try #require(try GainMapJPEG(try Data(contentsOf: URL(fileURLWithPath: Self.corpusFile))))
        #expect(corpus.gainMapSize == PixelSize(width: 960, height: 540) && corpus.primarySize == PixelSize(width: 3840, height: 2160))
        #expect(corpus.gainMap.count == 31738 && corpus.index.entries.count == 2 && !corpus.index.littleEndian)
        #expect(corpus.metadata?.gainMapMax == [6.64386] && corpus.metadata?.hdrCapacityMax == 6.64386 && corpus.metadata?.offsetSDR == [0])
    }
}
