import Foundation
import Testing

/// The version is written once, `VignetteVersion.current` (Sources/VignetteSupport): the built
/// `vignette --version` prints it, and CHANGELOG.md's newest released heading names it, so a
/// version bumped in the code without its changelog entry (or the other way round) fails here
/// before Scripts/release.sh would refuse to tag it.
@Suite("vignette --version and CHANGELOG.md")
struct VersionTests {
    /// `VignetteVersion.current` as written in its source file (this target does not import
    /// VignetteSupport; the file is the source of truth either way).
    static func codeVersion() throws -> String {
        let file = CLI.repository.appendingPathComponent("Sources/VignetteSupport/VignetteVersion.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let match = try #require(text.firstMatch(of: #/static let current = "([^"]*)"/#), "no VignetteVersion.current in \(file.path)")
        return String(match.1)
    }

    /// The version of CHANGELOG.md's first `## [x.y.z] - YYYY-MM-DD` heading ([Unreleased] is not one).
    static func newestReleased() throws -> String {
        let text = try String(contentsOf: CLI.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let heading = #/^## \[([0-9]+\.[0-9]+\.[0-9]+)\] - [0-9]{4}-[0-9]{2}-[0-9]{2}$/#
        let line = try #require(
            text.split(separator: "\n").first { $0.wholeMatch(of: heading) != nil }, "no released heading in CHANGELOG.md")
        return String(try #require(line.wholeMatch(of: heading)).1)
    }

    @Test("vignette --version prints VignetteVersion.current, a semantic version, and exits 0")
    func versionFlag() async throws {
        let version = try Self.codeVersion()
        #expect(version.wholeMatch(of: #/(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)/#) != nil, "\(version) is not MAJOR.MINOR.PATCH")
        let result = try await CLI.run(["--version"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == version + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("CHANGELOG.md's newest released heading is VignetteVersion.current")
    func changelogHeading() throws {
        #expect(try Self.newestReleased() == Self.codeVersion())
    }
}
