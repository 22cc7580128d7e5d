import Foundation
import Testing

@testable import VignetteCodecs

/// JPEGs at 1/4 and 1/2 from Vignette's reduced-scale decoders (`JPEGDC.decodeScaled`,
/// issue 34): their planes must equal libjpeg-turbo's (`TurboJPEG.decodePlanes` at that scale,
/// compared by `JPEGDC.compare`) byte for byte, they must decline what they do not take, and broken
/// files must keep the verdict they get without it. The generated files are JPEGDCTests'.
@Suite("JPEG reduced-scale decoder: libjpeg-turbo's 1/4 and 1/2 planes, libjpeg-turbo's verdicts")
struct JPEGScaledTests {
    static let denominators = [4, 2]

    /// Every JPEG of Fixtures/ and the corpus: the same planes, or declined; every planar Huffman
    /// JPEG libjpeg-turbo decodes is taken, sequential or progressive.
    @Test(arguments: denominators)
    func fixturesAndCorpus(_ denominator: Int) throws {
        var taken = 0
        for file in try JPEGDCTests.jpegFiles(for: "JPEGScaledTests") {
            let data = try Data(contentsOf: file)
            let result = JPEGDC.compare(data, denominator: denominator)
            #expect([.same, .declined, .notCompared].contains(result), "\(file.lastPathComponent) at 1/\(denominator): \(result)")
            if JPEGDC.kind(of: data) != .none, let header = TurboJPEG.header(of: data), header.isPlanar,
                (try? TurboJPEG.decodePlanes(data, header: header, denominator: denominator)) != nil
            {
                #expect(result == .same, "\(file.lastPathComponent) at 1/\(denominator): \(result)")
            }
            if result == .same { taken += 1 }
        }
        #expect(taken >= 10)
    }

    /// Every generated kind and size, sequential and progressive (cjpeg's, jpegtran's and a scan
    /// script's): equal at both scales; a 4:1:1 file at most 8 px wide is not compared
    /// (`JPEGDC.compare`).
    @Test(arguments: JPEGDCTests.sizes)
    func generatedFiles(_ size: (Int, Int)) async throws {
        try await JPEGDCTests.inFolder { folder in
            let files = try await JPEGDCTests.generated(width: size.0, height: size.1, in: folder)
            for (name, data) in files {
                let sliver = name.hasPrefix("4:1:1") && size.0 <= 8
                for denominator in Self.denominators {
                    #expect(
                        JPEGDC.compare(data, denominator: denominator, avoidingReferenceOverread: true)
                            == (sliver ? .notCompared : .same),
                        "\(size.0)x\(size.1) \(name) at 1/\(denominator)")
                }
            }
        }
    }

    /// Progressive files by scan script: libjpeg-turbo smooths the blocks of a file whose DC or AC
    /// coefficients 1..9 are not all fully refined at its end (jdcoefct.c), which the own decoder
    /// declines; a file that leaves only higher coefficients unsent, or refines in several steps,
    /// is taken and equal.
    @Test(arguments: denominators)
    func progressiveScripts(_ denominator: Int) async throws {
        let scripts: [(String, String, JPEGDC.Comparison)] = [
            ("AC at Al 1, never refined", "0,1,2: 0 0 0 0;\n0: 1 63 0 1;\n1: 1 63 0 0;\n2: 1 63 0 0;\n", .declined),
            ("DC at Al 1, never refined", "0,1,2: 0 0 0 1;\n0: 1 63 0 0;\n1: 1 63 0 0;\n2: 1 63 0 0;\n", .declined),
            ("AC 6..63 never sent", "0,1,2: 0 0 0 0;\n0: 1 5 0 0;\n1: 1 63 0 0;\n2: 1 63 0 0;\n", .declined),
            ("AC 10..63 never sent", "0,1,2: 0 0 0 0;\n0: 1 9 0 0;\n1: 1 63 0 0;\n2: 1 63 0 0;\n", .same),
            (
                "three refinements, one DC scan a component",
                "0: 0 0 0 2;\n1: 0 0 0 0;\n2: 0 0 0 0;\n0: 0 0 2 1;\n0: 1 2 0 3;\n0: 3 63 0 3;\n1: 1 63 0 0;\n2: 1 63 0 0;\n"
                    + "0: 1 63 3 2;\n0: 0 0 1 0;\n0: 1 63 2 1;\n0: 1 63 1 0;\n",
                .same
            ),
        ]
        try await JPEGDCTests.inFolder { folder in
            let source = folder.appendingPathComponent("source.ppm"), script = folder.appendingPathComponent("scan.txt")
            try JPEGDCTests.sourceImage(width: 257, height: 131, grey: false).write(to: source)
            for (name, text, expected) in scripts {
                try text.write(to: script, atomically: true, encoding: .utf8)
                let output = folder.appendingPathComponent("scripted.jpg")
                try await JPEGDCTests.run("cjpeg", ["-quality", "90", "-scans", script.path, "-outfile", output.path, source.path])
                let data = try Data(contentsOf: output)
                #expect(JPEGDC.kind(of: data) == .progressive, "\(name)")
                #expect(JPEGDC.compare(data, denominator: denominator) == expected, "\(name) at 1/\(denominator)")
            }
        }
    }

    /// `data` with each 16-bit quantisation table's values replaced by a pattern of large ones
    /// (above 32767 too, which libjpeg-turbo reads as negative 16-bit multipliers); the
    /// entropy-coded data is untouched.
    static func withLargeQuantisers(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        let pattern: [UInt16] = [0x7FFF, 0x4000, 0xC000, 0x1234, 300, 0x9000, 0x2000, 0xFFFF]
        var at = 0, table = 0
        while at + 4 < bytes.count {
            guard bytes[at] == 0xFF, bytes[at + 1] == 0xDB else {
                at += 1
                continue
            }
            let end = at + 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
            var index = at + 4
            while index < end, index < bytes.count {
                let sixteen = bytes[index] >> 4 != 0
                index += 1
                for k in 0..<64 where sixteen && index + 2 * k + 1 < bytes.count {
                    let value = pattern[(k + table) % pattern.count]
                    bytes[index + 2 * k] = UInt8(value >> 8)
                    bytes[index + 2 * k + 1] = UInt8(value & 0xFF)
                }
                index += sixteen ? 128 : 64
                table += 1
            }
            at = end
        }
        return Data(bytes)
    }

    /// Coefficients whose dequantised values overflow 16 bits: libjpeg-turbo's SSE2 IDCT, which
    /// its x86-64 build runs at 1/4 and 1/2, wraps and saturates where its C IDCT would not (with
    /// `JSIMD_FORCENONE=1` the two give other planes for these files), and the planes still match.
    /// On arm64 the decoders run too, with the twin of libjpeg-turbo's Neon IDCT, which narrows
    /// otherwise: the same expectations hold there (`make check-arm64` checks them under qemu).
    @Test func largeQuantisers() async throws {
        try await JPEGDCTests.inFolder { folder in
            let source = folder.appendingPathComponent("source.ppm"), tables = folder.appendingPathComponent("ones.qt")
            try JPEGDCTests.sourceImage(width: 96, height: 80, grey: false).write(to: source)
            // Quality 100 with one value above 255, so that cjpeg writes 16-bit tables.
            try (Array(repeating: "1", count: 63) + ["256"]).joined(separator: " ").write(to: tables, atomically: true, encoding: .utf8)
            for sampling in ["1x1", "2x2", "2x1"] {
                let output = folder.appendingPathComponent("\(sampling).jpg")
                try await JPEGDCTests.run("cjpeg", ["-qtables", tables.path, "-sample", sampling, "-outfile", output.path, source.path])
                let data = Self.withLargeQuantisers(try Data(contentsOf: output))
                for denominator in Self.denominators {
                    #expect(JPEGDC.compare(data, denominator: denominator) == .same, "\(sampling) at 1/\(denominator)")
                }
            }
        }
    }

    /// The AVX2 IDCT, which takes two blocks a call, gives the scalar twin's samples (the SSE2
    /// code's integers) for random blocks of every kind: small and full-range coefficients,
    /// quantisers past 32767, DC-only blocks beside full ones, blocks that take the 4x4 code's
    /// all-zero shortcut (rows 1-3 and 5-7 zero) beside ones that do not.
    @Test(arguments: denominators)
    func avx2IDCTEqualsScalarTwin(_ denominator: Int) throws {
        var generator = ProgressiveDecoderTests.Noise(seed: 34)
        var compared = 0
        for round in 0..<20000 {
            var blocks = [[Int16]](repeating: [Int16](repeating: 0, count: 64), count: 2)
            var quantisers = [[UInt16]](repeating: [UInt16](repeating: 1, count: 64), count: 2)
            for b in 0..<2 {
                let kind = (round + b) % 5
                for i in 0..<64 {
                    let row = i / 8
                    let present = kind == 0 || generator.next() % 4 == 0
                    switch kind {
                    case 0: blocks[b][i] = Int16(truncatingIfNeeded: generator.next())
                    case 1: blocks[b][i] = present ? Int16(Int(generator.next() % 64) - 32) : 0
                    case 2: blocks[b][i] = present && (row == 0 || row == 4) ? Int16(truncatingIfNeeded: generator.next()) : 0
                    case 3: blocks[b][i] = i == 0 ? Int16(truncatingIfNeeded: generator.next()) : 0
                    default: blocks[b][i] = present ? Int16(Int(generator.next() % 2048) - 1024) : 0
                    }
                    quantisers[b][i] = kind == 0 || kind == 2 ? UInt16(truncatingIfNeeded: generator.next()) : UInt16(1 + generator.next() % 255)
                }
            }
            guard let agrees = JPEGDC.idctAgrees(blocks[0], blocks[1], quantisers[0], quantisers[1], denominator: denominator) else {
                print("JPEGScaledTests: no AVX2 on this CPU; the scalar twin is the only IDCT")
                return
            }
            #expect(agrees, "round \(round) at 1/\(denominator): \(blocks) \(quantisers)")
            if !agrees { return }
            compared += 1
        }
        #expect(compared == 20000)
    }

    /// What a thumbnail of `data` comes to, made from a decode at 1/`denominator` of a 257 x 131 source.
    static func verdict(_ data: Data, fast: Bool, denominator: Int) -> JPEGDCTests.Verdict {
        denominator == 2
            ? JPEGDCTests.verdict(data, fast: fast, width: 100, height: 52) : JPEGDCTests.verdict(data, fast: fast, width: 50, height: 26)
    }

    /// Broken files get the same verdict (or the same thumbnail) with the own paths on and off,
    /// at 1/4 and 1/2: Fixtures' and the corpus' broken JPEGs and generated files damaged on purpose.
    @Test(arguments: denominators)
    func brokenFilesKeepTheirVerdict(_ denominator: Int) async throws {
        var inputs: [(String, Data)] = []
        for name in ["cut-short.jpg", "corrupt.jpg", "empty.jpg", "hostile-coefficients.jpg", "hostile-missing-data.jpg"] {
            inputs.append((name, try Data(contentsOf: TestFiles.fixture(name))))
        }
        if TestFiles.corpusAvailable {
            for name in ["truncated.jpg", "corrupt-header.jpg"] {
                inputs.append((name, try Data(contentsOf: TestFiles.corpusFile(name))))
            }
        }
        try await JPEGDCTests.inFolder { folder in
            let source = folder.appendingPathComponent("source.ppm")
            try JPEGDCTests.sourceImage(width: 257, height: 131, grey: false).write(to: source)
            for (name, arguments) in [
                ("baseline", [String]()), ("restarts", ["-restart", "2B"]), ("4:4:4", ["-sample", "1x1"]),
                ("progressive", ["-progressive"]), ("progressive restarts", ["-progressive", "-restart", "3B"]),
            ] {
                let output = folder.appendingPathComponent("\(name).jpg")
                try await JPEGDCTests.run("cjpeg", arguments + ["-outfile", output.path, source.path])
                let data = try Data(contentsOf: output)
                inputs += JPEGDCTests.damaged(data, flipLimit: data.count).map { ("\(name) \($0.0)", $0.1) }
            }
        }
        var failures = 0, unsteady = 0, taken = 0
        for (name, data) in inputs {
            let comparison = JPEGDC.compare(data, denominator: denominator)
            #expect([.same, .declined, .notCompared].contains(comparison), "\(name) at 1/\(denominator): \(comparison)")
            if comparison == .same { taken += 1 }
            let on = Self.verdict(data, fast: true, denominator: denominator)
            let off = Self.verdict(data, fast: false, denominator: denominator)
            if !on.agrees(with: off) {
                // libvips' shrink-on-load gives some truncated files a verdict at random (see
                // JPEGDCTests): there the own path must have declined.
                #expect(name.contains("cut") && comparison != .same, "\(name) at 1/\(denominator): \(on) vs \(off)")
                unsteady += 1
            }
            if case .failure = off { failures += 1 }
        }
        #expect(failures >= 30)
        #expect(taken >= 5)
        if unsteady > 0 { print("JPEGScaledTests: \(unsteady) truncated file(s) whose verdict libvips gave at random") }
    }

    /// The thumbnails of Fixtures' and the corpus' JPEGs at 720 and 512 px are byte-identical with
    /// the own paths on and off.
    @Test func thumbnailsAreTheSame() throws {
        var compared = 0
        for file in try JPEGDCTests.jpegFiles(for: "JPEGScaledTests") {
            let data = try Data(contentsOf: file)
            guard let header = TurboJPEG.header(of: data), header.width * header.height <= Thumbnailer.planarMaximumSourcePixels else { continue }
            for side in [720, 512, 160] {
                let on = JPEGDCTests.verdict(data, fast: true, width: side, height: side)
                let off = JPEGDCTests.verdict(data, fast: false, width: side, height: side)
                #expect(on.agrees(with: off), "\(file.lastPathComponent) at \(side) px")
                compared += 1
            }
        }
        #expect(compared >= 30)
    }
}
