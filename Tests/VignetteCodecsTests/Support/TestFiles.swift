import Foundation
import Testing
import VignetteCodecs

/// Where the test images are: the repo's Fixtures/ and, beside the checkout, ../shared/corpus.
enum TestFiles {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Fixtures")
    static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    static var corpusAvailable: Bool {
        FileManager.default.fileExists(atPath: corpus.appendingPathComponent("MANIFEST.tsv").path)
    }

    static func fixture(_ name: String) -> URL { fixtures.appendingPathComponent(name) }
    static func corpusFile(_ name: String) -> URL { corpus.appendingPathComponent(name) }

    static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }
}

/// A row of Fixtures/MANIFEST.tsv.
struct FixtureEntry: CustomTestStringConvertible, Sendable {
    let file: String
    let format: String
    let width: Int?
    let height: Int?
    let bands: Int?
    let alpha: Bool
    let orientation: Int
    let pages: Int
    let thumbnail: String
    let expect: String

    var url: URL { TestFiles.fixture(file) }
    var testDescription: String { file }

    static let all: [FixtureEntry] = {
        guard let text = try? String(contentsOf: TestFiles.fixture("MANIFEST.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 10 else { return nil }
            return FixtureEntry(
                file: f[0], format: f[1], width: Int(f[2]), height: Int(f[3]), bands: Int(f[4]), alpha: f[5] == "1",
                orientation: Int(f[6]) ?? 1, pages: Int(f[7]) ?? 1, thumbnail: f[8], expect: f[9])
        }
    }()

    static var loadable: [FixtureEntry] { all.filter { $0.expect == "ok" } }
    static var broken: [FixtureEntry] { all.filter { $0.expect == "error" } }
}

/// A row of ../shared/corpus/MANIFEST.tsv, with the libvips 8.14 header column parsed.
struct CorpusEntry: CustomTestStringConvertible, Sendable {
    let file: String
    let format: String
    let special: String
    /// nil when libvips 8.14 cannot load the file ("ERROR …").
    let header: (width: Int, height: Int, bands: Int, interpretation: String, loader: String)?

    var url: URL { TestFiles.corpusFile(file) }
    var testDescription: String { file }
    /// libvips reads the header, and the pixels decode under a failure level of `error`
    /// (the truncated files only decode with fail-on none).
    var loadable: Bool { header != nil && !special.contains("fails with fail_on") }

    static let all: [CorpusEntry] = {
        guard let text = try? String(contentsOf: TestFiles.corpusFile("MANIFEST.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 6 else { return nil }
            return CorpusEntry(file: f[0], format: f[2], special: f[3], header: parseHeader(f[5]))
        }
    }()

    /// "2725x2225 uchar, 3 bands, srgb, jpegload"
    static func parseHeader(_ text: String) -> (Int, Int, Int, String, String)? {
        guard !text.hasPrefix("ERROR") else { return nil }
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count >= 4 else { return nil }
        let size = parts[0].split(separator: " ")[0].split(separator: "x").compactMap { Int($0) }
        let bands = Int(parts[1].split(separator: " ")[0])
        guard size.count == 2, let bands else { return nil }
        return (size[0], size[1], bands, parts[2], parts[3])
    }

    static var loadable: [CorpusEntry] { all.filter(\.loadable) }
    static var broken: [CorpusEntry] { all.filter { !$0.loadable } }
}

extension ImagingError.Kind {
    /// The kinds that mean "this input is bad", as opposed to a misuse or an I/O failure.
    var isBadInput: Bool {
        [.unsupportedFormat, .corruptData, .truncatedData, .limitExceeded].contains(self)
    }
}

/// Runs `body` and returns the `ImagingError` it throws, or records an issue when it does not throw.
func expectImagingError<T>(
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(ImagingError) -> T
) -> ImagingError? {
    do {
        _ = try body()
        Issue.record("expected an ImagingError \(comment.map { "(\($0))" } ?? "")", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips the test, saying why, when ../shared/corpus is not beside the checkout.
    static var corpus: Self { .enabled(if: TestFiles.corpusAvailable, "../shared/corpus is absent beside the checkout") }
}
