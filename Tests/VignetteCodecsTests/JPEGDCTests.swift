import ChildProcess
import Foundation
import Testing

@testable import VignetteCodecs

/// JPEGs at 1/8 from each block's DC only (`JPEGDC`, issue 25): the DC-only entropy decoder for
/// sequential files and the DC-scans-only stream for progressive ones must give exactly
/// libjpeg-turbo's 1/8 planes (`TurboJPEG.decodePlanes`, compared by `JPEGDC.compare` over every
/// sample that stands for a block of the picture), decline what they do not take, and leave
/// every broken file the verdict it gets without them. Real files, real libjpeg-turbo; the
/// generated JPEGs are made at test time by libjpeg-turbo's own `cjpeg` and `jpegtran`.
@Suite("JPEG DC paths: libjpeg-turbo's 1/8 planes, libjpeg-turbo's verdicts")
struct JPEGDCTests {
    // MARK: - Real files

    /// Every JPEG of Fixtures/ and the corpus: the same planes, or declined exactly where
    /// libjpeg-turbo fails.
    @Test func fixturesAndCorpus() throws {
        var taken = 0
        for file in try Self.jpegFiles(for: "JPEGDCTests") {
            let data = try Data(contentsOf: file)
            let result = JPEGDC.compare(data)
            #expect([.same, .declined, .notCompared].contains(result), "\(file.lastPathComponent): \(result)")
            // Every planar JPEG libjpeg-turbo decodes here is one the DC paths take.
            if let header = TurboJPEG.header(of: data), header.isPlanar,
                (try? TurboJPEG.decodePlanes(data, header: header, denominator: 8)) != nil
            {
                #expect(result == .same, "\(file.lastPathComponent): \(result)")
            }
            if result == .same { taken += 1 }
        }
        #expect(taken >= 10)
    }

    /// Every JPEG of Fixtures/ and, when it is there, of the corpus (else `suite` says so).
    static func jpegFiles(for suite: String) throws -> [URL] {
        var files = try FileManager.default.contentsOfDirectory(atPath: TestFiles.fixtures.path)
            .filter { $0.hasSuffix(".jpg") }.sorted().map { TestFiles.fixture($0) }
        if TestFiles.corpusAvailable {
            files += try FileManager.default.contentsOfDirectory(atPath: TestFiles.corpus.path)
                .filter { $0.hasSuffix(".jpg") }.sorted().map { TestFiles.corpusFile($0) }
        } else {
            print("\(suite): ../shared/corpus is absent; its JPEGs are skipped")
        }
        return files
    }

    // MARK: - Generated files

    /// cjpeg's `-sample` for each subsampling TurboJPEG names.
    static let samplings = ["4:4:4": "1x1,1x1,1x1", "4:2:2": "2x1,1x1,1x1", "4:2:0": "2x2,1x1,1x1", "4:4:0": "1x2,1x1,1x1", "4:1:1": "4x1,1x1,1x1"]

    /// A scan script of the kind mozjpeg writes: successive approximation for DC and luma AC,
    /// spectral selection for chroma.
    static let colourScript = """
        0,1,2: 0 0 0 1;
        0: 1 8 0 2;
        1: 1 8 0 0;
        2: 1 8 0 0;
        0: 9 63 0 2;
        0,1,2: 0 0 1 0;
        0: 1 63 2 1;
        0: 1 63 1 0;
        1: 9 63 0 0;
        2: 9 63 0 0;
        """
    static let greyScript = """
        0: 0 0 0 1;
        0: 1 5 0 2;
        0: 6 63 0 2;
        0: 0 0 1 0;
        0: 1 63 2 1;
        0: 1 63 1 0;
        """

    /// `width` × `height` pixels of a pattern with noise (PPM, or PGM for grey): smooth parts,
    /// edges and detail, so that every kind of Huffman symbol appears.
    static func sourceImage(width: Int, height: Int, grey: Bool) -> Data {
        let bands = grey ? 1 : 3
        var bytes = [UInt8](repeating: 0, count: width * height * bands)
        var seed: UInt32 = 0x1234_5678
        for index in bytes.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let x = (index / bands) % width, y = index / bands / width
            bytes[index] = UInt8(truncatingIfNeeded: x * 7 + y * 13 + (index % bands) * 50 + Int(seed >> 26) + (x / 16 + y / 16) % 2 * 90)
        }
        var data = Data("\(grey ? "P5" : "P6")\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: bytes)
        return data
    }

    /// Runs `tool` (cjpeg, jpegtran) from libjpeg-turbo-progs with `arguments`.
    static func run(_ tool: String, _ arguments: [String]) async throws {
        let path = "/usr/bin/\(tool)"
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(tool) is missing: make test installs libjpeg-turbo-progs")
        let process = try ChildProcess(path, arguments)
        let result = await process.result(killAfter: .seconds(120))
        try #require(result.termination == .exited(0), "\(tool) \(arguments.joined(separator: " ")): \(result.standardError)")
    }

    /// A scratch folder, removed by `body`'s end.
    static func inFolder<R>(_ body: (URL) async throws -> R) async throws -> R {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-jpegdc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// The JPEGs made from one `width` × `height` source: every subsampling and greyscale; default
    /// and optimised Huffman tables; restart intervals of 1 and 7 MCUs; progressive as cjpeg
    /// writes it, as jpegtran rewrites a baseline file, and by a mozjpeg-like script with
    /// successive-approximation DC.
    static func generated(width: Int, height: Int, in folder: URL) async throws -> [(name: String, data: Data)] {
        let colour = folder.appendingPathComponent("source.ppm"), grey = folder.appendingPathComponent("source.pgm")
        try sourceImage(width: width, height: height, grey: false).write(to: colour)
        try sourceImage(width: width, height: height, grey: true).write(to: grey)
        let colourScan = folder.appendingPathComponent("colour.scans"), greyScan = folder.appendingPathComponent("grey.scans")
        try colourScript.write(to: colourScan, atomically: true, encoding: .utf8)
        try greyScript.write(to: greyScan, atomically: true, encoding: .utf8)
        let variants: [(String, [String])] = [
            ("default", []), ("optimised", ["-optimize"]), ("restart-1", ["-restart", "1B"]), ("restart-7", ["-restart", "7B"]),
            ("progressive", ["-progressive"]),
        ]
        var made: [(String, Data)] = []
        for (sampling, factors) in samplings.sorted(by: { $0.key < $1.key }) {
            for (variant, extra) in variants + [("scripted", ["-scans", colourScan.path])] {
                let output = folder.appendingPathComponent("\(sampling)-\(variant).jpg")
                try await run("cjpeg", ["-quality", variant == "restart-7" ? "97" : "80", "-sample", factors] + extra + ["-outfile", output.path, colour.path])
                made.append(("\(sampling) \(variant)", try Data(contentsOf: output)))
            }
            let baseline = folder.appendingPathComponent("\(sampling)-default.jpg"), twin = folder.appendingPathComponent("\(sampling)-twin.jpg")
            try await run("jpegtran", ["-progressive", "-outfile", twin.path, baseline.path])
            made.append(("\(sampling) jpegtran -progressive", try Data(contentsOf: twin)))
        }
        for (variant, extra) in variants + [("scripted", ["-scans", greyScan.path])] {
            let output = folder.appendingPathComponent("grey-\(variant).jpg")
            try await run("cjpeg", ["-grayscale", "-quality", "90"] + extra + ["-outfile", output.path, grey.path])
            made.append(("grey \(variant)", try Data(contentsOf: output)))
        }
        return made
    }

    static let sizes: [(Int, Int)] = [(1, 1), (7, 9), (8, 8), (17, 13), (33, 65), (100, 75), (257, 131), (1, 300), (65500, 1)]

    /// Bit-exact on every generated kind and size, each taken by its DC path; but a 4:1:1 file at
    /// most 8 px wide is not compared, since libjpeg-turbo's reference decode of it reads past its
    /// own buffer (which AddressSanitizer stops at).
    @Test(arguments: sizes)
    func generatedFiles(_ size: (Int, Int)) async throws {
        try await Self.inFolder { folder in
            let files = try await Self.generated(width: size.0, height: size.1, in: folder)
            #expect(files.count == 5 * 7 + 6)
            for (name, data) in files {
                let sliver = name.hasPrefix("4:1:1") && size.0 <= 8
                #expect(
                    JPEGDC.compare(data, avoidingReferenceOverread: true) == (sliver ? .notCompared : .same),
                    "\(size.0)x\(size.1) \(name)")
                let progressive = name.contains("progressive") || name.contains("scripted")
                #expect(JPEGDC.kind(of: data) == (progressive ? .progressive : .sequential), "\(name)")
            }
        }
    }

    /// A progressive file whose AC scans are missing, or that has DC scans only: declined (libjpeg
    /// would smooth its DC), and the stream of a file with an arithmetic-coded frame: declined.
    @Test func declinesWhatItCannotMatch() async throws {
        try await Self.inFolder { folder in
            let source = folder.appendingPathComponent("source.ppm"), script = folder.appendingPathComponent("dc.scans")
            try Self.sourceImage(width: 64, height: 48, grey: false).write(to: source)
            try "0,1,2: 0 0 0 0;\n0: 1 63 0 0;\n".write(to: script, atomically: true, encoding: .utf8)
            let output = folder.appendingPathComponent("dc-only-chroma.jpg")
            try await Self.run("cjpeg", ["-scans", script.path, "-outfile", output.path, source.path])
            let data = try Data(contentsOf: output)
            #expect(JPEGDC.kind(of: data) == .progressive)
            #expect(JPEGDC.dcScans(of: data) == nil)
            #expect(JPEGDC.compare(data) == .declined)
            let arithmetic = folder.appendingPathComponent("arithmetic.jpg")
            try await Self.run("cjpeg", ["-arithmetic", "-outfile", arithmetic.path, source.path])
            #expect(JPEGDC.kind(of: try Data(contentsOf: arithmetic)) == .none)
        }
    }

    // MARK: - Verdicts

    /// What a thumbnail of `data` comes to: the encoded bytes, or the error's kind and message.
    enum Verdict: Equatable {
        case thumbnail(Data)
        case failure(ImagingError.Kind, String)

        /// The same thumbnail, or a failure of the same kind: libvips' error buffer is shared by the
        /// whole process, so under concurrent tests its message may be another thread's or none.
        func agrees(with other: Verdict) -> Bool {
            switch (self, other) {
            case (.thumbnail(let a), .thumbnail(let b)): a == b
            case (.failure(let a, _), .failure(let b, _)): a == b
            default: false
            }
        }
    }

    /// The verdict on a thumbnail of `data` in a `width` x `height` box, the own paths on or off.
    static func verdict(_ data: Data, fast: Bool, failOn: FailOn = .error, width: Int = 16, height: Int = 16) -> Verdict {
        var limits = DecodingLimits.untrusted
        limits.failOn = failOn
        var thumbnailer = Thumbnailer(options: ThumbnailOptions(width: width, height: height), limits: limits)
        thumbnailer.jpegFastDC = fast
        thumbnailer.jpegOwnScaled = fast
        do {
            return .thumbnail(try thumbnailer.encodedThumbnail(data, as: .jpeg(JPEGOptions(quality: 80))).data)
        } catch {
            return .failure(error.kind, error.message)
        }
    }

    /// `data` damaged in ways a marker walk can see or that hit the data the DC paths decode: cut
    /// short, bytes flipped before `flipLimit`, EOI removed, a stray byte between segments, a
    /// restart marker renumbered.
    static func damaged(_ data: Data, flipLimit: Int) -> [(String, Data)] {
        var out: [(String, Data)] = []
        for step in 1..<16 { out.append(("cut at \(step)/16", data.prefix(data.count * step / 16))) }
        out.append(("cut by 1", data.dropLast(1)))
        out.append(("cut by 3", data.dropLast(3)))
        for step in 1..<24 {
            var copy = data
            let at = max(2, flipLimit * step / 24)
            guard at < copy.count else { continue }
            copy[at] ^= 0x55
            out.append(("flipped at \(at)", copy))
        }
        var stray = data
        stray.insert(0x00, at: 2)
        out.append(("stray byte after SOI", stray))
        if let rst = data.indices.dropLast().first(where: { data[$0] == 0xFF && data[$0 + 1] == 0xD1 }) {
            var renumbered = data
            renumbered[rst + 1] = 0xD3
            out.append(("RST1 as RST3", renumbered))
            var removed = data
            removed.removeSubrange(rst..<(rst + 2))
            out.append(("RST1 removed", removed))
        }
        return out
    }

    /// The offset of the `n`th SOS marker (1-based), or the length: 0xFF 0xDA cannot occur inside
    /// entropy-coded data, where 0xFF is followed by 0x00 or RSTn.
    static func startOfScan(_ n: Int, in data: Data) -> Int {
        var seen = 0
        for index in data.indices.dropLast() where data[index] == 0xFF && data[index + 1] == 0xDA {
            seen += 1
            if seen == n { return index }
        }
        return data.count
    }

    /// Broken files get the same verdict (or the same thumbnail) with the DC paths on and off:
    /// Fixtures' and the corpus' broken JPEGs and generated files damaged on purpose. The
    /// progressive file is damaged up to its first AC scan only: damage inside the AC scans'
    /// entropy-coded data is the known gap, checked below.
    @Test func brokenFilesKeepTheirVerdict() async throws {
        var inputs: [(String, Data)] = []
        for name in ["cut-short.jpg", "corrupt.jpg", "empty.jpg", "hostile-coefficients.jpg", "hostile-missing-data.jpg", "hostile-progressive.jpg"] {
            inputs.append((name, try Data(contentsOf: TestFiles.fixture(name))))
        }
        if TestFiles.corpusAvailable {
            for name in ["truncated.jpg", "corrupt-header.jpg", "testimgl.jpg"] {
                inputs.append((name, try Data(contentsOf: TestFiles.corpusFile(name))))
            }
        }
        try await Self.inFolder { folder in
            let source = folder.appendingPathComponent("source.ppm")
            try Self.sourceImage(width: 257, height: 131, grey: false).write(to: source)
            let baseline = folder.appendingPathComponent("baseline.jpg"), restarts = folder.appendingPathComponent("restarts.jpg")
            let progressive = folder.appendingPathComponent("progressive.jpg")
            try await Self.run("cjpeg", ["-outfile", baseline.path, source.path])
            try await Self.run("cjpeg", ["-restart", "2B", "-outfile", restarts.path, source.path])
            try await Self.run("jpegtran", ["-progressive", "-restart", "3B", "-outfile", progressive.path, baseline.path])
            for (name, file) in [("baseline", baseline), ("restarts", restarts)] {
                let data = try Data(contentsOf: file)
                inputs += Self.damaged(data, flipLimit: data.count).map { ("\(name) \($0.0)", $0.1) }
            }
            let data = try Data(contentsOf: progressive)
            inputs += Self.damaged(data, flipLimit: Self.startOfScan(2, in: data)).map { ("progressive \($0.0)", $0.1) }
        }
        var failures = 0, unsteady = 0
        for (name, data) in inputs {
            // The DC path takes a damaged file only where libjpeg-turbo decodes it to the same planes.
            let comparison = JPEGDC.compare(data)
            #expect([.same, .declined, .notCompared].contains(comparison), "\(name): \(comparison)")
            let on = Self.verdict(data, fast: true), off = Self.verdict(data, fast: false)
            if !on.agrees(with: off) {
                // Some truncated files get a thumbnail, or "Premature end of input file" as
                // truncated or as corrupt data, from libvips' shrink-on-load at random, DC paths or
                // not (seen here with them off, run after run): there the DC path must have
                // declined, so that both runs took the same route.
                #expect(name.contains("cut") && comparison != .same, "\(name): \(on) vs \(off)")
                unsteady += 1
            }
            if case .failure = off { failures += 1 }
        }
        #expect(failures >= 20)
        if unsteady > 0 { print("JPEGDCTests: \(unsteady) truncated file(s) whose verdict libvips gave at random") }
    }

    /// Damage inside a progressive file's AC scan: unseen by the DC-scans copy, so the thumbnail
    /// differs from the one made from libjpeg-turbo's warned-about decode, but not the verdict:
    /// below `FailOn.warning` both are thumbnails (libvips decodes through the warning), and at
    /// `.warning` the planar route leaves progressive files to libjpeg-turbo. (What libvips then
    /// says at `.warning` varies from run to run for such a file, DC paths or not, so it is not
    /// compared.)
    @Test func damagedACScans() async throws {
        let data = try await Self.inFolder { folder in
            let source = folder.appendingPathComponent("source.ppm"), output = folder.appendingPathComponent("progressive.jpg")
            try Self.sourceImage(width: 257, height: 131, grey: false).write(to: source)
            try await Self.run("cjpeg", ["-progressive", "-outfile", output.path, source.path])
            return try Data(contentsOf: output)
        }
        let header = try #require(TurboJPEG.header(of: data))
        let from = Self.startOfScan(3, in: data), to = Self.startOfScan(4, in: data)
        try #require(to - from > 100)
        var unseen = 0
        for step in 1..<8 {
            var copy = data
            copy[from + 20 + (to - from - 40) * step / 8] ^= 0x5A
            let comparison = JPEGDC.compare(copy)
            #expect(comparison == .same || { if case .uncheckedACData = comparison { return true } else { return false } }(), "step \(step): \(comparison)")
            if comparison != .same { unseen += 1 }
            for failOn in [FailOn.none, .error] {
                let on = Self.verdict(copy, fast: true, failOn: failOn), off = Self.verdict(copy, fast: false, failOn: failOn)
                guard case .thumbnail = on, case .thumbnail = off else {
                    Issue.record("step \(step) failOn \(failOn): \(on) vs \(off)")
                    continue
                }
            }
            #expect(JPEGDC.decodePlanes(copy, header: header, progressive: false) == nil)
        }
        #expect(unseen > 0)
    }

    @Test("a 4:1:1 sliver (at most 8 px wide at 1/8) takes the libvips route, not libjpeg-turbo's planes, which read past their buffer")
    func narrow411() async throws {
        try await Self.inFolder { folder in
            let source = folder.appendingPathComponent("sliver.ppm"), jpeg = folder.appendingPathComponent("sliver.jpg")
            try Self.sourceImage(width: 6, height: 40, grey: false).write(to: source)
            try await Self.run("cjpeg", ["-sample", "4x1", "-outfile", jpeg.path, source.path])
            // Written as a JPEG below quality 90, the route that would encode the planes as they are.
            let (bytes, made) = try Thumbnailer(options: ThumbnailOptions(width: 1, height: 5))
                .encodedThumbnail(Data(contentsOf: jpeg), as: .jpeg(JPEGOptions(quality: 80)))
            #expect(made.image.width == 1 && made.image.height == 5 && !made.decodedAsPlanes && !bytes.isEmpty)
        }
    }

    // MARK: - The thumbnails

    /// The benchmark photo and its progressive twin (jpegtran -progressive, lossless) make the
    /// same 256-px thumbnail byte for byte, the DC paths on or off.
    @Test func progressiveTwinMakesTheSameThumbnail() async throws {
        guard TestFiles.corpusAvailable else {
            print("JPEGDCTests: ../shared/corpus is absent; the twin test is skipped")
            return
        }
        let photo = TestFiles.corpusFile("2569067123_aca715a2ee_o.jpg")
        let twin = try await Self.inFolder { folder in
            let output = folder.appendingPathComponent("twin.jpg")
            try await Self.run("jpegtran", ["-progressive", "-outfile", output.path, photo.path])
            return try Data(contentsOf: output)
        }
        let baseline = try Data(contentsOf: photo)
        #expect(JPEGDC.kind(of: baseline) == .sequential)
        #expect(JPEGDC.kind(of: twin) == .progressive)
        var thumbnails: [Data] = []
        for fast in [true, false] {
            var thumbnailer = Thumbnailer(options: ThumbnailOptions(width: 256, height: 256))
            thumbnailer.jpegFastDC = fast
            thumbnailer.jpegOwnScaled = fast
            for data in [baseline, twin] {
                let made = try thumbnailer.encodedThumbnail(data, as: .jpeg(JPEGOptions(quality: 80)))
                #expect(made.thumbnail.decodedAsPlanes)
                thumbnails.append(made.data)
            }
        }
        #expect(Set(thumbnails).count == 1)
    }
}
