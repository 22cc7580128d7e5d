import Foundation
import Testing
import VignetteCodecs

/// `vignette compare REFERENCE DISTORTED [--json]`: SSIMULACRA 2.1 from the command line.
@Suite("vignette compare")
struct CompareCLITests {
    static func fixture(_ name: String) -> String { CLI.fixtures.appendingPathComponent(name).path }

    @Test("the score with 8 decimals, the library's; --json names both files and the size")
    func score() async throws {
        let reference = Self.fixture("rgb8.png"), distorted = Self.fixture("ssimulacra2/rgb8-q50.jpg")
        let result = try await CLI.run(["compare", reference, distorted])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = try #require(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(result.stdout.split(separator: ".").last?.trimmingCharacters(in: .newlines).count == 8)
        let decoder = ImageDecoder()
        let expected = try SSIMULACRA2Reference(image: decoder.decode(fileAt: reference)).score(decoder.decode(fileAt: distorted))
        #expect(abs(printed - expected) < 1e-7)
        #expect(printed > 30 && printed < 95)

        let json = try await CLI.run(["compare", "--json", reference, distorted])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["reference"] as? String == reference && object["distorted"] as? String == distorted)
        #expect(object["width"] as? Int == 320 && object["height"] as? Int == 240)
        #expect(abs(try #require(object["ssimulacra2"] as? Double) - expected) < 1e-9)
    }

    @Test("an image against itself: 100.00000000")
    func identical() async throws {
        let result = try await CLI.run(["compare", Self.fixture("alpha.png"), Self.fixture("alpha.png")])
        #expect(result.status == 0 && result.stdout == "100.00000000\n", "\(result.stderr)")
    }

    @Test("images that differ only by their EXIF orientation are compared upright")
    func orientation() async throws {
        let result = try await CLI.run(["compare", Self.fixture("orientation-1.jpg"), Self.fixture("orientation-6.jpg")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((Double(result.stdout.trimmingCharacters(in: .newlines)) ?? 0) > 80)
    }

    @Test("another size, a missing file, a corrupt file: exit 1 and one line naming the file")
    func failures() async throws {
        let small = Self.fixture("rgb8.png"), big = Self.fixture("baseline.jpg")
        let sizes = try await CLI.run(["compare", small, big])
        #expect(sizes.status == 1 && sizes.stdout.isEmpty)
        #expect(sizes.stderrLines == ["vignette: \(big): SSIMULACRA2 compares images of one size: this one is 640x480, the reference 320x240"])

        let missing = try await CLI.run(["compare", "/nonexistent.png", small])
        #expect(missing.status == 1 && missing.stderrLines.count == 1)
        #expect(missing.stderrLines.first?.hasPrefix("vignette: /nonexistent.png: ") == true)

        let corrupt = try await CLI.run(["compare", small, Self.fixture("corrupt.png")])
        #expect(corrupt.status == 1 && corrupt.stderrLines.count == 1)
        #expect(corrupt.stderrLines.first?.hasPrefix("vignette: \(Self.fixture("corrupt.png")): ") == true)
    }

    @Test("a usage error exits 2", arguments: [["compare"], ["compare", "one.png"], ["compare", "a.png", "b.png", "--bogus"]])
    func usage(arguments: [String]) async throws {
        #expect(try await CLI.run(arguments).status == 2)
    }
}
