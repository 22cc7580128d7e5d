import ArgumentParser
import Glibc
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette
import VignetteSupport

/// `vignette`: thumbnails and conversions for processing scripts.
///
/// Exit status: 0 when every input succeeded, 1 when any input failed (the others are still
/// written), 2 for a usage error or a run that cannot start (its output folder or cache folder
/// cannot be made: one line naming the path and the system's reason), 130 / 143 when `thumbnail`
/// is stopped by SIGINT / SIGTERM.
@main
struct VignetteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vignette",
        abstract: "Fast, safe thumbnails and image conversions (libvips, libwebp, libheif).",
        version: VignetteVersion.current,
        subcommands: [InfoCommand.self, ThumbnailCommand.self, ConvertCommand.self, CompareCommand.self, ServeCommand.self])

    /// ArgumentParser exits 64 on usage errors; the contract says 2.
    static func main() async {
        // Before any thread runs: libvips starts without its untrusted modules (see ImagingRuntime.start).
        try? ImagingRuntime.start()
        RuntimeSwitches.apply()
        unblockStopSignals()
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Glibc.exit(exit.rawValue)
        } catch let failure as CommandFailure {
            // The run could not start (an output folder that cannot be made …): one line, exit 2.
            Console.error(Console.escaped(failure.message))
            Glibc.exit(2)
        } catch let failure as ImagingError {
            Console.error(Console.escaped(failure.message))
            Glibc.exit(2)
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

    /// A parent may start us with SIGINT and SIGTERM blocked (a process spawned from a thread that
    /// blocks them, as Dispatch's worker threads do, inherits that mask): then `info` and `convert`
    /// could not be stopped but by SIGKILL, and Ctrl-C would be kept pending. Unblock them.
    private static func unblockStopSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}
