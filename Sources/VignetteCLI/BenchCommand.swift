import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import VignetteSupport

/// `vignette bench`: runs the benchmark suite of a Vignette checkout (Benchmarks/run.sh, the same
/// as `make bench`) and prints its comparison table.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run the benchmark suite (Benchmarks/run.sh) and print the comparison table.",
        discussion: """
            Needs a Vignette checkout (found from the current folder or the binary's location) with \
            ../shared/corpus beside it, libvips-tools, hyperfine and python3; `make bench` installs them.
            """)

    @Option(help: "Seconds each in-process case is timed per round (BENCH_SECONDS).")
    var seconds: Int?

    @Option(help: "Rounds of the in-process cases (BENCH_ROUNDS).")
    var rounds: Int?

    @Flag(help: "Use the binaries already built in .build/release (SKIP_BUILD=1).")
    var skipBuild = false

    func validate() throws {
        if let seconds, !(1...600).contains(seconds) { throw ValidationError("--seconds must be 1–600, got \(seconds)") }
        if let rounds, !(1...20).contains(rounds) { throw ValidationError("--rounds must be 1–20, got \(rounds)") }
    }

    func run() throws {
        guard let script = Self.findScript() else {
            throw ValidationError("no Benchmarks/run.sh found from here or from the vignette binary: run it inside a Vignette checkout")
        }
        if let seconds { setenv("BENCH_SECONDS", String(seconds), 1) }
        if let rounds { setenv("BENCH_ROUNDS", String(rounds), 1) }
        if skipBuild { setenv("SKIP_BUILD", "1", 1) }
        let arguments = ["/bin/bash", script]
        var cArguments = arguments.map { strdup($0) } + [nil]
        execv("/bin/bash", &cArguments)
        // Only reached when exec failed.
        Console.error("cannot run \(script): \(SystemError.reason(for: errno))")
        throw ExitCode(1)
    }

    /// Benchmarks/run.sh in the current folder or one above it, or above the binary (.build/release/vignette).
    static func findScript() -> String? {
        var starts = [FileManager.default.currentDirectoryPath]
        if let executable = CommandLine.arguments.first {
            let resolved = realpath(executable, nil).map { pointer -> String in
                defer { free(pointer) }
                return String(cString: pointer)
            }
            if let resolved { starts.append(URL(fileURLWithPath: resolved).deletingLastPathComponent().path) }
        }
        for start in starts {
            var folder = URL(fileURLWithPath: start)
            for _ in 0..<6 {
                let candidate = folder.appendingPathComponent("Benchmarks/run.sh").path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                folder = folder.deletingLastPathComponent()
            }
        }
        return nil
    }
}
