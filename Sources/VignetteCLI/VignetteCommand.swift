import ArgumentParser
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `vignette`: thumbnails and conversions for processing scripts.
///
/// Exit status: 0 when every input succeeded, 1 when any input failed (the others are still
/// written), 2 for a usage error.
@main
struct VignetteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vignette",
        abstract: "Fast, safe thumbnails and image conversions (libvips, libwebp, libheif).",
        subcommands: [InfoCommand.self, ThumbnailCommand.self, ConvertCommand.self, BenchCommand.self])

    /// ArgumentParser exits 64 on usage errors; the contract says 2.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Glibc.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                print(message)
                Glibc.exit(0)
            }
            Console.error(message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message)
            Glibc.exit(2)
        }
    }
}
