import Foundation
import Testing
import VignetteCodecs

@Suite("vignette thumbnail")
struct ThumbnailCommandTests {
    /// Fixtures rows: file and expect.
    static let fixtureRows: [(file: String, longSide: Int, expect: String)] = {
        guard let text = try? String(contentsOf: CLI.fixtures.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return (fields[0], max(Int(fields[2]) ?? 0, Int(fields[3]) ?? 0), fields.last ?? "")
        }
    }()

    @Test("over Fixtures/: exit 1, every good image written at the right size, one stderr line per bad one")
    func fixtures() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let inputs = Self.fixtureRows.map { CLI.fixtures.appendingPathComponent($0.file).path }
        let result = try await CLI.run(["thumbnail"] + inputs + ["--size", "200", "--out", out.path])
        #expect(!result.killedBySignal)
        #expect(result.status == 1)
        let bad = Self.fixtureRows.filter { $0.expect != "ok" }.map(\.file)
        #expect(result.vignetteLines.count == bad.count, "\(result.stderr)")
        for file in bad {
            #expect(result.stderrLines.filter { $0.hasPrefix("vignette: \(CLI.fixtures.path)/\(file): ") }.count == 1, "\(file)")
        }
        let written = CLI.files(in: out)
        #expect(!written.contains { $0.hasSuffix(".partial") || $0.hasPrefix(".") })
        for row in Self.fixtureRows where row.expect == "ok" {
            let stem = (row.file as NSString).deletingPathExtension
            let output = written.first { ($0 as NSString).deletingPathExtension == stem || ($0 as NSString).deletingPathExtension == row.file }
            let name = try #require(output, "no output for \(row.file)")
            let info = try ImageDecoder().probe(fileAt: out.appendingPathComponent(name).path)
            #expect(max(info.width, info.height) == min(200, row.longSide), "\(name)")
            // Animated GIF and WebP inputs stay animated: WebP under --format auto.
            let animated = row.file.hasPrefix("animated")
            #expect(info.format == (animated ? .webp : info.hasAlpha ? .png : .jpeg), "\(name)")
        }
    }

    @Test("over every file of ../shared/corpus: exit 1, every good output written, one clear line per bad input, never a signal", .corpus)
    func corpus() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let files = CLI.files(in: CLI.corpus)
        let result = try await CLI.run(["thumbnail"] + files.map { CLI.corpus.appendingPathComponent($0).path } + ["--size", "256", "--out", out.path])
        #expect(!result.killedBySignal)
        #expect(result.status == 1)
        let failed = Set(result.stderrLines.compactMap { line -> String? in
            guard line.hasPrefix("vignette: ") else { return nil }
            return files.first { line.hasPrefix("vignette: \(CLI.corpus.path)/\($0): ") }
        })
        #expect(failed.count == result.stderrLines.count, "every stderr line names one input: \(result.stderr)")
        let expectedBad: Set = [
            "MANIFEST.tsv", "65536-uint32-limit.png", "corrupt-header.jpg", "testimgl.jpg", "truncated.jpg", "truncated.png",
        ]
        #expect(failed == expectedBad)
        let written = CLI.files(in: out)
        #expect(written.count == files.count - expectedBad.count)
        #expect(!written.contains { $0.hasSuffix(".partial") })
    }

    @Test("--help shows each default as it is typed (the --name template, not a Swift value)")
    func help() async throws {
        let result = try await CLI.run(["thumbnail", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("(default: {name}.{ext})"), "\(result.stdout)")
        #expect(!result.stdout.contains("OutputTemplate"))
    }

    @Test("--json --placeholder adds each thumbnail's ThumbHash to its entry")
    func placeholder() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let input = CLI.fixtures.appendingPathComponent("baseline.jpg").path
        let result = try await CLI.run(["thumbnail", input, "--size", "64", "--out", out.path, "--json", "--placeholder", "thumbhash"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let entry = try #require((report["results"] as? [[String: Any]])?.first)
        let hash = try #require(entry["thumbhash"] as? String)
        let decoded = try ThumbHash.decode(Array(try #require(Data(base64Encoded: hash))))
        #expect(decoded.width == 32 && decoded.height == 23)
    }

    @Test("--json reports each input and the totals")
    func json() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run([
            "thumbnail", CLI.fixtures.appendingPathComponent("baseline.jpg").path, CLI.fixtures.appendingPathComponent("corrupt.png").path,
            "--size", "64x48", "--format", "webp", "--out", out.path, "--json",
        ])
        #expect(result.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(results[0]["width"] as? Int == 64 && results[0]["height"] as? Int == 48)
        #expect((results[0]["output"] as? String)?.hasSuffix("baseline.webp") == true)
        #expect(results[0]["cached"] as? Bool == false)
        #expect(results[1]["error"] is String)
        let totals = try #require(report["totals"] as? [String: Any])
        #expect(totals["succeeded"] as? Int == 1 && totals["failed"] as? Int == 1)
    }

    @Test("all good inputs: exit 0; blur, cover and formats apply", arguments: ["jpeg", "png", "webp", "heic", "avif"])
    func formats(format: String) async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run([
            "thumbnail", CLI.fixtures.appendingPathComponent("orientation-6.jpg").path, "--size", "100", "--fit", "cover",
            "--blur", "1.5", "--format", format, "--quality", "70", "--out", out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let name = try #require(CLI.files(in: out).first)
        let info = try ImageDecoder().probe(fileAt: out.appendingPathComponent(name).path)
        #expect(info.width == 100 && info.height == 100)
        #expect(info.format.rawValue == format)
    }

    @Test("usage errors exit 2", arguments: [
        ["thumbnail", "x.jpg", "--out", "/tmp/v"],  // no --size
        ["thumbnail", "x.jpg", "--size", "0", "--out", "/tmp/v"],
        ["thumbnail", "x.jpg", "--size", "12x", "--out", "/tmp/v"],
        ["thumbnail", "x.jpg", "--size", "100", "--out", "/tmp/v", "--fit", "squash"],
        ["thumbnail", "x.jpg", "--size", "100", "--out", "/tmp/v", "--format", "pcx"],
        ["thumbnail", "x.jpg", "--size", "100", "--out", "/tmp/v", "--quality", "101"],
        ["thumbnail", "x.jpg", "--size", "100", "--out", "/tmp/v", "--jobs", "0"],
        ["thumbnail", "x.jpg", "--size", "100", "--out", "/tmp/v", "--name", "{bogus}.{ext}"],
        ["thumbnail", "x.jpg", "--size", "100", "--out", "/tmp/v", "--name", "fixed.jpg"],
        ["thumbnail", "x.jpg", "--size", "100", "--out", "/tmp/v", "--alpha-format", "gif"],
        ["thumbnail", "--size", "100", "--out", "/tmp/v"],
        ["frobnicate"],
        ["bench"],
    ])
    func usage(arguments: [String]) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("vignette: "), "\(result.stderr)")
    }

    @Test("inputs sharing a name keep their extension instead of overwriting each other")
    func sameName() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run([
            "thumbnail", CLI.fixtures.appendingPathComponent("still.gif").path, CLI.fixtures.appendingPathComponent("animated.gif").path,
            CLI.fixtures.appendingPathComponent("lossy.webp").path, CLI.fixtures.appendingPathComponent("alpha.webp").path,
            CLI.fixtures.appendingPathComponent("alpha.png").path, "--size", "50", "--out", out.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(CLI.files(in: out) == ["alpha.png.png", "alpha.webp.png", "animated.webp", "lossy.jpg", "still.jpg"])
    }
}
