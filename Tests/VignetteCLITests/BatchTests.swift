import Foundation
import Testing
import VignetteCodecs

@Suite("vignette thumbnail for batches: folders, globs, jobs, cache, names, interruption")
struct BatchTests {
    static let brokenInFolder: Set = [
        "cut-short.jpg", "cut-short.png", "corrupt.jpg", "corrupt.png", "empty.jpg", "huge-declared.png",
        "hostile-progressive.jpg", "hostile-coefficients.jpg", "hostile-missing-data.jpg", "hostile-wide16.png",
        "hostile-canvas.webp", "hostile-coded-size.avif", "cut-short.jxl", "hostile-huge.jxl",
    ]

    func report(_ result: CLIResult) throws -> (entries: [[String: Any]], totals: [String: Any]) {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        return (try #require(json["results"] as? [[String: Any]]), try #require(json["totals"] as? [String: Any]))
    }

    @Test("a folder stands for its images, recursively; --jobs 2 writes the same files as --jobs 1")
    func folderAndJobs() async throws {
        let one = try CLI.temporaryDirectory(), two = try CLI.temporaryDirectory()
        defer { for d in [one, two] { try? FileManager.default.removeItem(at: d) } }
        let a = try await CLI.run(["thumbnail", CLI.fixtures.path, "--size", "64", "--out", one.path, "--jobs", "1", "--json"])
        let b = try await CLI.run(["thumbnail", CLI.fixtures.path, "--size", "64", "--out", two.path, "--jobs", "2"])
        #expect(a.status == 1 && b.status == 1)
        let (entries, totals) = try report(a)
        let failed = Set(entries.filter { $0["error"] is String }.compactMap { ($0["input"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } })
        #expect(failed == Self.brokenInFolder)
        #expect(totals["succeeded"] as? Int == 45)  // the good images of Fixtures/, animated-loop3.gif/.webp, the colour ones (srgb-profile.jpg too), rgb.jxl and the ten of Fixtures/ssimulacra2/ included
        #expect(CLI.files(in: one) == CLI.files(in: two))
        for name in CLI.files(in: one) {
            #expect(try Data(contentsOf: one.appendingPathComponent(name)) == Data(contentsOf: two.appendingPathComponent(name)), "\(name)")
        }
        #expect(b.vignetteLines.count == Self.brokenInFolder.count, "\(b.stderr)")
    }

    @Test("a quoted glob is expanded; one that matches nothing gets a line")
    func globs() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run(["thumbnail", CLI.fixtures.path + "/orientation-*.jpg", CLI.fixtures.path + "/nothing-*.png",
                                  "--size", "32", "--out", out.path])
        #expect(result.status == 1)
        #expect(CLI.files(in: out).count == 8)
        #expect(result.stderrLines == ["vignette: \(CLI.fixtures.path)/nothing-*.png: no file matches"])
    }

    @Test("--cache: a second run makes nothing (every entry cached) and writes identical files")
    func cache() async throws {
        let first = try CLI.temporaryDirectory(), second = try CLI.temporaryDirectory(), cache = try CLI.temporaryDirectory()
        defer { for d in [first, second, cache] { try? FileManager.default.removeItem(at: d) } }
        let inputs = ["baseline.jpg", "alpha.png", "thumbnail.heic", "lossy.webp"].map { CLI.fixtures.appendingPathComponent($0).path }
        let a = try await CLI.run(["thumbnail"] + inputs + ["--size", "80", "--out", first.path, "--cache", cache.path, "--json"])
        let b = try await CLI.run(["thumbnail"] + inputs + ["--size", "80", "--out", second.path, "--cache", cache.path, "--json"])
        #expect(a.status == 0, "\(a.stderr)")
        #expect(b.status == 0, "\(b.stderr)")
        #expect(try report(a).entries.allSatisfy { $0["cached"] as? Bool == false })
        #expect(try report(b).entries.allSatisfy { $0["cached"] as? Bool == true })
        #expect(CLI.files(in: first) == CLI.files(in: second))
        for name in CLI.files(in: first) {
            #expect(try Data(contentsOf: first.appendingPathComponent(name)) == Data(contentsOf: second.appendingPathComponent(name)))
        }
        // Other options make other entries.
        let c = try await CLI.run(["thumbnail"] + inputs + ["--size", "81", "--out", second.path, "--cache", cache.path, "--json"])
        #expect(try report(c).entries.allSatisfy { $0["cached"] as? Bool == false })
    }

    @Test("--skip-existing leaves existing outputs alone; --name names files from a template")
    func skipAndName() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let input = CLI.fixtures.appendingPathComponent("baseline.jpg").path
        let first = try await CLI.run(["thumbnail", input, "--size", "64", "--out", out.path, "--name", "{name}-{width}x{height}.{ext}"])
        #expect(first.status == 0)
        #expect(CLI.files(in: out) == ["baseline-64x48.jpg"])
        let path = out.appendingPathComponent("baseline-64x48.jpg").path
        try Data("not really".utf8).write(to: URL(fileURLWithPath: path))
        let second = try await CLI.run(["thumbnail", input, "--size", "64", "--out", out.path, "--name", "{name}-{width}x{height}.{ext}",
                                  "--skip-existing", "--json"])
        #expect(second.status == 0)
        #expect(try report(second).entries.first?["skipped"] as? Bool == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not really")
    }

    @Test("--format auto with --alpha-format webp; --keep-metadata keeps EXIF, the default strips it")
    func formatsAndMetadata() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let alpha = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent("alpha.png").path, "--size", "50",
                                 "--alpha-format", "webp", "--out", out.path])
        #expect(alpha.status == 0)
        #expect(try ImageDecoder().probe(fileAt: out.appendingPathComponent("alpha.webp").path).hasAlpha)
        let input = CLI.fixtures.appendingPathComponent("exif-thumbnail.jpg").path
        _ = try await CLI.run(["thumbnail", input, "--size", "300", "--out", out.path, "--name", "stripped-{name}.{ext}"])
        _ = try await CLI.run(["thumbnail", input, "--size", "300", "--out", out.path, "--name", "kept-{name}.{ext}", "--keep-metadata"])
        let stripped = try Data(contentsOf: out.appendingPathComponent("stripped-exif-thumbnail.jpg"))
        let kept = try Data(contentsOf: out.appendingPathComponent("kept-exif-thumbnail.jpg"))
        #expect(!stripped.contains(Array("Exif".utf8)))
        #expect(kept.contains(Array("Exif".utf8)))
    }

    @Test("no progress bar when standard error is not a terminal")
    func noProgressOffTerminal() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent("baseline.jpg").path, "--size", "20", "--out", out.path])
        #expect(result.stderr.isEmpty)
    }

    @Test("on a terminal, a progress bar with count, rate and ETA", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnTerminal() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let binary = try #require(CLI.binary)
        // script(1) gives the command a pseudo-terminal.
        let command = "\(binary.path) thumbnail \(CLI.fixtures.path)/orientation-*.jpg --size 20 --out \(out.path)"
        let process = try CLI.start("/usr/bin/script", ["-qec", command, "/dev/null"])
        let result = await CLI.finish(process)
        #expect(result.status == 0)
        #expect(result.stdout.contains("8/8 ["))
        #expect(result.stdout.contains("img/s"))
        #expect(result.stdout.contains("ETA"))
    }

    @Test("SIGINT or SIGTERM in the middle of a batch: exit 130 or 143, a report, no partial file, every output whole",
          arguments: [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")])
    func interrupt(signal: Int32, name: String) async throws {
        let inputs = try CLI.manyInputs(300, of: "thumbnail.heic"), out = try CLI.temporaryDirectory()
        defer { for d in [inputs, out] { try? FileManager.default.removeItem(at: d) } }
        let process = try CLI.start(["thumbnail", inputs.path, "--size", "1200", "--out", out.path, "--jobs", "2", "--json"])
        CLI.send(signal, to: process) { CLI.files(in: out).filter({ !$0.hasPrefix(".") }).count >= 5 }
        let result = await CLI.finish(process)
        #expect(!result.killedBySignal)
        #expect(result.status == 128 + signal)
        #expect(result.stderr.contains("interrupted by \(name)"))
        let written = CLI.files(in: out)
        #expect(!written.contains { $0.hasPrefix(".") || $0.hasSuffix(".partial") })
        #expect(written.count < 300)
        for name in written {
            #expect(try ImageDecoder().probe(fileAt: out.appendingPathComponent(name).path).width == 1200)
        }
        let (entries, totals) = try report(result)
        #expect(totals["interrupted"] as? Bool == true)
        #expect(entries.count == written.count)
    }
}
