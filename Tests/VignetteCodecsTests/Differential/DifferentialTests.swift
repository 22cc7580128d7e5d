import ChildProcess
import Foundation
import Testing
@testable import VignetteCodecs

/// Issue 53, item 5: odd real-world inputs thumbnailed by Vignette and by libvips' `vipsthumbnail`.
/// Where libvips makes a thumbnail and Vignette does not, the test fails unless the input falls
/// under a rule of the policy docs/inputs.md lists (its table: a loader Vignette blocks for
/// untrusted input, the truncated-file rule, the decoding budget). Where both make one, the two
/// must have the same size (±1 pixel a side) and look alike (dHash within 12 of 64).
///
/// The inputs: files made at test time by the reference tools (Tests/Differential/make-odd-inputs.sh),
/// every image in Fixtures/ (with the BMP Suite's good files and the icons), and the shared corpus
/// when it is beside the checkout.
@Suite("Differential: what vipsthumbnail makes, Vignette makes, or the policy says why not")
struct DifferentialTests {
    /// One row of docs/inputs.md's policy table: a rule (a libvips loader's nickname, or
    /// `truncated` / `budget`) and why Vignette refuses what libvips reads.
    struct Policy {
        let rules: Set<String>

        /// The rules in the first column of docs/inputs.md's table rows that start with a backtick.
        static func load() throws -> Policy {
            let text = try String(contentsOf: TestFiles.repository.appendingPathComponent("docs/inputs.md"), encoding: .utf8)
            var rules: Set<String> = []
            for line in text.split(separator: "\n") where line.hasPrefix("| `") {
                let cell = line.dropFirst(3).prefix { $0 != "`" }
                rules.insert(String(cell))
            }
            return Policy(rules: rules)
        }
    }

    struct Outcome {
        let file: String
        let loader: String
        let vips: Image?
        let vignette: Result<Image, ImagingError>
    }

    static let box = 128

    /// The inputs: made by the script into a fresh folder, then Fixtures/ and the corpus.
    static func inputs(madeIn folder: URL) async throws -> [URL] {
        _ = try await ColourReference.run(
            TestFiles.repository.appendingPathComponent("Tests/Differential/make-odd-inputs.sh").path, [folder.path])
        let fileManager = FileManager.default
        func files(_ url: URL) -> [URL] {
            ((try? fileManager.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? [])
                .filter { !["sh", "md", "tsv", "txt"].contains($0.pathExtension) && !$0.hasDirectoryPath }
                .sorted { $0.path < $1.path }
        }
        // The BMP Suite's good files and the icons: what libvips reads through ImageMagick and
        // Vignette through its own decoders.
        let bitmaps = files(TestFiles.fixture("bmpsuite/g")) + files(TestFiles.fixture("icons"))
        return files(folder) + files(TestFiles.fixtures) + bitmaps + (TestFiles.corpusAvailable ? files(TestFiles.corpus) : [])
    }

    /// The standard output of `tool` with `arguments`, nil when it does not exit with 0 (a
    /// failure here is an answer, not a test issue).
    static func output(_ tool: String, _ arguments: [String]) async -> Data? {
        guard let executable = ColourReference.tool(tool),
            let process = try? ChildProcess(executable, arguments, killAfter: .seconds(120))
        else { return nil }
        let result = await process.result()
        return result.termination == .exited(0) ? Data(result.output) : nil
    }

    /// libvips' loader for `file` (`vipsheader`'s last word; a `.v` file keeps the loader of
    /// what it was saved from there, so it is named by its extension), or "none".
    static func loader(of file: URL) async -> String {
        if file.pathExtension == "v" { return "vipsload" }
        guard let output = await output("vipsheader", [file.path]) else { return "none" }
        let line = String(decoding: output, as: UTF8.self).split(separator: "\n").first ?? ""
        return line.split(separator: " ").last.map(String.init) ?? "none"
    }

    /// `vipsthumbnail`'s thumbnail of `file` in the box, read back from a PNG; nil when it fails.
    /// `shrinkOnly` (`-s 128>`, for a source that fits the box: Vignette does not enlarge by
    /// default) is not given for larger ones, whose pyramid TIFFs libvips 8.14 then thumbnails
    /// from a level below the box.
    static func vipsThumbnail(_ file: URL, into folder: URL, shrinkOnly: Bool) async -> Image? {
        let output = folder.appendingPathComponent("vips-\(UUID().uuidString).png").path
        let size = shrinkOnly ? "\(box)>" : "\(box)"
        guard await Self.output("vipsthumbnail", [file.path, "-s", size, "-o", output + "[strip]"]) != nil,
            let data = try? Data(contentsOf: URL(fileURLWithPath: output))
        else { return nil }
        return try? ImageDecoder(limits: .unlimited).decode(data)
    }

    @Test("libvips' thumbnails are Vignette's too, or the policy names the reason", .vipsCommand)
    func differential() async throws {
        let policy = try Policy.load()
        try #require(policy.rules.contains("magickload") && policy.rules.contains("truncated"), "docs/inputs.md has its table")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = folder.appendingPathComponent("inputs")
        let inputs = try await Self.inputs(madeIn: made)
        #expect(inputs.count >= 80, "\(inputs.count) inputs")
        var compared = 0, excused: [String: Int] = [:], problems: [String] = []
        for file in inputs {
            let name = file.path.replacingOccurrences(of: TestFiles.repository.deletingLastPathComponent().path + "/", with: "")
            let data = try Data(contentsOf: file)
            let upright = (try? ImageDecoder().probe(data))?.uprightSize
            let fits = upright.map { $0.width <= Self.box && $0.height <= Self.box } ?? true
            let reference = await Self.vipsThumbnail(file, into: folder, shrinkOnly: fits)
            let result = Result { () throws(ImagingError) in try Thumbnailer(options: ThumbnailOptions(size: Self.box)).thumbnail(data).image }
            switch (reference, result) {
            case (nil, _):
                continue  // libvips makes none: nothing to hold Vignette to.
            case (let reference?, .success(let image)):
                compared += 1
                guard abs(image.width - reference.width) <= 1, abs(image.height - reference.height) <= 1 else {
                    // An icon: libvips (through ImageMagick) reads its first entry, Vignette the one the box needs.
                    if ["ico", "cur"].contains(file.pathExtension), policy.rules.contains("icon-entry"),
                        image.width >= reference.width, image.height >= reference.height
                    {
                        excused["icon-entry", default: 0] += 1
                        continue
                    }
                    problems.append("\(name): \(image.width)x\(image.height), vipsthumbnail \(reference.width)x\(reference.height)")
                    continue
                }
                let distance = try image.perceptualHash().distance(to: reference.perceptualHash())
                if distance > 12 { problems.append("\(name): dHash \(distance) from vipsthumbnail") }
            case (.some, .failure(let error)):
                let loader = await Self.loader(of: file)
                let rule: String? =
                    if policy.rules.contains(loader) { loader }
                    else if error.kind == .truncatedData, policy.rules.contains("truncated") { "truncated" }
                    else if error.kind == .limitExceeded, policy.rules.contains("budget") { "budget" }
                    else { nil }
                if let rule {
                    excused[rule, default: 0] += 1
                } else {
                    problems.append("\(name) (\(loader)): vipsthumbnail makes a thumbnail, Vignette fails: \(error)")
                }
            }
        }
        print("differential: \(inputs.count) inputs, \(compared) compared, refused by policy: \(excused.sorted { $0.key < $1.key })")
        for problem in problems { print("differential: \(problem)") }
        #expect(problems.isEmpty, "\(problems.count) differences (printed above)")
    }
}
