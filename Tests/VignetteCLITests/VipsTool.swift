import Foundation
import Testing
import VignetteCodecs

/// libvips' own command-line tool (`vips`, Debian's libvips-tools, which `make test` installs): it
/// makes the reference images the operation tests compare Vignette's output with.
enum VipsTool {
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/vips" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Runs `vips ARGUMENTS`, waited for off Swift's cooperative pool (`CLI.finish`); throws with
    /// its standard error when it fails.
    static func run(_ arguments: [String]) async throws {
        let executable = try #require(path, "the vips command-line tool is not installed")
        let process = try CLI.start(executable, arguments)
        let result = await CLI.finish(process)
        try #require(result.status == 0, "vips \(arguments.joined(separator: " ")): \(result.stderr)")
    }

    /// The image at `url`, decoded.
    static func image(_ url: URL) throws -> Image {
        try ImageDecoder().decode(try Data(contentsOf: url))
    }
}

extension Trait where Self == ConditionTrait {
    static var vipsTool: Self { .enabled(if: VipsTool.path != nil, "the vips command-line tool (libvips-tools) is not installed") }
}
