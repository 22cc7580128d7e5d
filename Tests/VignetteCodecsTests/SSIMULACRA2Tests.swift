import ChildProcess
import Foundation
import Testing
import VignetteCodecs

/// SSIMULACRA 2.1 (`SSIMULACRA2Reference`) against libjxl's `ssimulacra2` tool: the scores it gave
/// for Fixtures/ssimulacra2/ (recorded in scores.tsv by Scripts/check-ssimulacra2.sh --fixtures),
/// and, when the tool is on this machine (Scripts/ssimulacra2-reference.sh has made it), the tool
/// run now on the very pixels Vignette decoded. The corpus-wide comparison (80 pairs) is the
/// script's.
@Suite("SSIMULACRA2")
struct SSIMULACRA2Tests {
    /// The largest difference from the reference tool the issue allows.
    static let tolerance = 0.5

    struct Pair: CustomTestStringConvertible, Sendable {
        let reference: String
        let distorted: String
        let recorded: Double
        var testDescription: String { "\(distorted) against \(reference)" }
        var referenceURL: URL { TestFiles.fixture(reference) }
        var distortedURL: URL { TestFiles.fixture("ssimulacra2/\(distorted)") }
    }

    static let pairs: [Pair] = {
        guard let text = try? String(contentsOf: TestFiles.fixture("ssimulacra2/scores.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst().compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3, let score = Double(fields[2]) else { return nil }
            return Pair(reference: fields[0], distorted: fields[1], recorded: score)
        }
    }()

    static func decode(_ url: URL) throws -> Image {
        try ImageDecoder().decode(fileAt: url.path)
    }

    @Test("the recorded pairs are there")
    func recordedPairs() {
        #expect(Self.pairs.count >= 10)
    }

    @Test("within 0.5 of libjxl's recorded score", arguments: pairs)
    func recorded(pair: Pair) throws {
        let reference = try SSIMULACRA2Reference(image: Self.decode(pair.referenceURL))
        let score = try reference.score(Self.decode(pair.distortedURL))
        #expect(abs(score - pair.recorded) <= Self.tolerance, "Vignette \(score), libjxl \(pair.recorded)")
    }

    @Test("within 0.5 of libjxl's tool run now on the same pixels", arguments: pairs)
    func live(pair: Pair) async throws {
        guard let tool = await Self.referenceTool() else {
            print("SSIMULACRA2: libjxl's ssimulacra2 is not on this machine (Scripts/ssimulacra2-reference.sh makes it); the live comparison is skipped")
            return
        }
        let referenceImage = try Self.decode(pair.referenceURL), candidate = try Self.decode(pair.distortedURL)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-ssimulacra2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("reference.pam"), second = folder.appendingPathComponent("distorted.pam")
        try Self.pam(referenceImage.pixels()).write(to: first)
        try Self.pam(candidate.pixels()).write(to: second)
        let process = try ChildProcess(tool[0], Array(tool.dropFirst()) + [first.path, second.path])
        let result = await process.result(killAfter: .seconds(120))
        try #require(result.termination == .exited(0), "libjxl's ssimulacra2: \(result.standardError)")
        let expected = try #require(Double(result.standardOutput.split(separator: "\n").last ?? ""))
        let score = try SSIMULACRA2Reference(image: referenceImage).score(candidate)
        #expect(abs(score - expected) <= Self.tolerance, "Vignette \(score), libjxl \(expected)")
    }

    @Test("the scalar and AVX2 paths give the same scores", arguments: pairs.prefix(4))
    func pathsAgree(pair: Pair) throws {
        let referenceImage = try Self.decode(pair.referenceURL), candidate = try Self.decode(pair.distortedURL)
        let automatic = try SSIMULACRA2Reference(image: referenceImage).score(candidate)
        let scalar = try SSIMULACRA2Reference(image: referenceImage, scalar: true).score(candidate)
        #expect(abs(automatic - scalar) < 1e-6)
    }

    @Test("an image against itself scores 100, with and without alpha", arguments: ["rgb8.png", "alpha.png", "grey-alpha.png"])
    func identical(file: String) throws {
        let image = try Self.decode(TestFiles.fixture(file))
        #expect(try SSIMULACRA2Reference(image: image).score(image) == 100)
    }

    @Test("one prepared reference scores many candidates, from several tasks at once, as it scores each alone")
    func preparedOnce() async throws {
        let chosen = Self.pairs.filter { $0.reference == "rgb8.png" }
        try #require(chosen.count >= 3)
        let reference = try SSIMULACRA2Reference(image: Self.decode(chosen[0].referenceURL))
        let candidates = try chosen.map { try Self.decode($0.distortedURL) }
        let alone = try candidates.map { try SSIMULACRA2Reference(image: Self.decode(chosen[0].referenceURL)).score($0) }
        let together = try await withThrowingTaskGroup(of: (Int, Double).self) { group in
            for _ in 0..<3 {
                for (index, candidate) in candidates.enumerated() {
                    group.addTask { (index, try reference.score(candidate)) }
                }
            }
            var scores: [Int: [Double]] = [:]
            for try await (index, score) in group { scores[index, default: []].append(score) }
            return scores
        }
        for (index, score) in alone.enumerated() {
            #expect(together[index]?.allSatisfy { $0 == score } == true)
        }
        // The pyramid and one score's scratch planes: about 90 bytes a pixel for an opaque image.
        #expect((60...120).contains(reference.byteCount / (reference.width * reference.height)))
    }

    @Test("a candidate of another size is refused, naming both sizes")
    func otherSize() throws {
        let reference = try SSIMULACRA2Reference(image: Self.decode(TestFiles.fixture("rgb8.png")))
        #expect {
            try reference.score(Self.decode(TestFiles.fixture("baseline.jpg")))
        } throws: { error in
            let error = error as? ImagingError
            return error?.kind == .invalidArgument && error?.message.contains("640x480") == true
                && error?.message.contains("320x240") == true
        }
    }

    @Test("images under 8 pixels a side are refused", arguments: [(7, 20), (20, 7), (1, 1)])
    func tooSmall(size: (Int, Int)) throws {
        let pixels = PixelBuffer(width: size.0, height: size.1, bands: 3, bytes: [UInt8](repeating: 90, count: size.0 * size.1 * 3))
        #expect(throws: ImagingError.self) { try SSIMULACRA2Reference(image: Image(pixels: pixels)) }
        let eight = PixelBuffer(width: 8, height: 8, bands: 3, bytes: [UInt8](repeating: 90, count: 8 * 8 * 3))
        #expect(try SSIMULACRA2Reference(image: Image(pixels: eight)).score(Image(pixels: eight)) == 100)
    }

    // MARK: - The reference tool

    /// The command of libjxl's tool when this machine has one (never made here: NO_BUILD=1).
    static func referenceTool() async -> [String]? {
        let script = TestFiles.repository.appendingPathComponent("Scripts/ssimulacra2-reference.sh").path
        var environment = ProcessInfo.processInfo.environment
        environment["NO_BUILD"] = "1"
        guard let process = try? ChildProcess(script, ["--path"], environment: environment) else { return nil }
        let result = await process.result(killAfter: .seconds(60))
        guard result.termination == .exited(0) else { return nil }
        let words = result.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init)
        return words.isEmpty ? nil : words
    }

    /// `pixels` as an 8-bit PAM, which libjxl's tool reads.
    static func pam(_ pixels: PixelBuffer) -> Data {
        let type = ["GRAYSCALE", "GRAYSCALE_ALPHA", "RGB", "RGB_ALPHA"][pixels.bands - 1]
        let header = "P7\nWIDTH \(pixels.width)\nHEIGHT \(pixels.height)\nDEPTH \(pixels.bands)\nMAXVAL 255\nTUPLTYPE \(type)\nENDHDR\n"
        return Data(header.utf8) + Data(pixels.bytes)
    }
}
