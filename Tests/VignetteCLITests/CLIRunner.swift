import ChildProcess
import Foundation
import Testing

/// Runs the built `vignette` binary and collects what it did.
struct CLIResult {
    let status: Int32
    /// True when the process ended by a signal rather than exiting.
    let killedBySignal: Bool
    let stdout: String
    let stderr: String

    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    /// Vignette's own lines on standard error (`vignette: …`): a C library may print diagnostics of
    /// its own there too (libjxl 0.11, Debian 13's, for a JPEG XL cut short).
    var vignetteLines: [String] { stderrLines.filter { $0.hasPrefix("vignette: ") } }
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
}

enum CLI {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repository.appendingPathComponent("Fixtures")
    static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    static var corpusAvailable: Bool { FileManager.default.fileExists(atPath: corpus.appendingPathComponent("MANIFEST.tsv").path) }

    /// The `vignette` built beside the test bundle.
    static var binary: URL? {
        var candidates: [URL] = []
        if let argv0 = CommandLine.arguments.first {
            var folder = URL(fileURLWithPath: argv0).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent("vignette"))
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(repository.appendingPathComponent(".build/debug/vignette"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs the binary to its end, once one of `slots` is free.
    static func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> CLIResult {
        try await slots.holding { await finish(try start(arguments, environment: environment)) }
    }

    /// How many binaries `run` has going at once: the suite starts every test together, and a
    /// hundred children at a time (each 5–15 times slower in a sanitizer build) starved the
    /// in-process tests beside them for minutes. Tests that start a child themselves (a server, a
    /// signal) are not counted.
    static let slots = Slots(count: max(2, 2 * ProcessInfo.processInfo.activeProcessorCount))

    /// A counting semaphore for tasks: waiting suspends, it never holds a thread.
    actor Slots {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(count: Int) { free = count }

        func holding<T>(_ body: () async throws -> T) async rethrows -> T {
            if free > 0 {
                free -= 1
            } else {
                await withCheckedContinuation { waiting.append($0) }
            }
            defer { release() }
            return try await body()
        }

        private func release() {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
    }

    /// Starts the binary; `finish` collects what it did. `environment`, when given, is added to the
    /// test process's own, without any scheduler variables of its own. `blockedSignals` are blocked
    /// in the child when it starts (by default none).
    static func start(
        _ arguments: [String], input: ChildProcess.Input = .null, environment: [String: String]? = nil,
        blockedSignals: [Int32] = []
    ) throws -> ChildProcess {
        let binary = try #require(binary, "the vignette binary is not built")
        return try start(binary.path, arguments, input: input, environment: environment, blockedSignals: blockedSignals)
    }

    /// Starts any `executable` the way `start` starts the binary (a shell, `script`, `vips`).
    static func start(
        _ executable: String, _ arguments: [String], input: ChildProcess.Input = .null,
        environment: [String: String]? = nil, blockedSignals: [Int32] = []
    ) throws -> ChildProcess {
        try ChildProcess(
            executable, arguments, environment: environment.map(childEnvironment), input: input,
            blockedSignals: blockedSignals)
    }

    /// Waits for the process without holding a thread of Swift's cooperative pool (two threads on
    /// a 2-core machine, which the async tests beside this one need).
    static func finish(_ process: ChildProcess) async -> CLIResult {
        await finish(process, killAfter: nil).result
    }

    /// `finish`, killing the process (SIGKILL) once it has run `limit` from now.
    static func finish(_ process: ChildProcess, killAfter limit: Duration?) async -> (result: CLIResult, killed: Bool) {
        let ended = await process.result(killAfter: limit)
        let (status, bySignal): (Int32, Bool) = switch ended.termination {
        case .exited(let code): (code, false)
        case .signalled(let signal): (signal, true)
        }
        let result = CLIResult(
            status: status, killedBySignal: bySignal, stdout: ended.standardOutput, stderr: ended.standardError)
        return (result, ended.wasKilled)
    }

    /// Runs the binary like `run`, but kills it (SIGKILL) when it is still running after `limit`:
    /// a test of something that must not block fails instead of hanging. `elapsed` is the wall time.
    static func run(
        _ arguments: [String], killAfter limit: Duration, input: ChildProcess.Input = .null
    ) async throws -> (result: CLIResult, elapsed: Duration, killed: Bool) {
        try await slots.holding {
            let started = ContinuousClock.now
            let process = try start(arguments, input: input)
            let (result, killed) = await finish(process, killAfter: limit)
            return (result, ContinuousClock.now - started, killed)
        }
    }

    /// Sends `signal` to `process` from a thread of its own once `ready()` holds (or after `within`):
    /// Swift's pool can be held for seconds by the CPU-bound tests running beside this one, long
    /// enough for a whole batch to finish.
    static func send(_ signal: Int32, to process: ChildProcess, within: Duration = .seconds(30), when ready: @escaping @Sendable () -> Bool) {
        // A thread of its own: Dispatch's few pool threads may all be blocked in waits.
        Thread.detachNewThread {
            let deadline = ContinuousClock.now + within
            while !ready(), ContinuousClock.now < deadline { usleep(2_000) }
            process.send(signal)
        }
    }

    /// A folder of `count` symbolic links to one fixture (`copy-N.ext`): a batch long enough to interrupt.
    static func manyInputs(_ count: Int, of fixture: String) throws -> URL {
        let folder = try temporaryDirectory()
        let ext = (fixture as NSString).pathExtension
        for index in 0..<count {
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("copy-\(index).\(ext)").path,
                withDestinationPath: fixtures.appendingPathComponent(fixture).path)
        }
        return folder
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func files(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }
}

extension Duration {
    var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Trait where Self == ConditionTrait {
    static var corpus: Self { .enabled(if: CLI.corpusAvailable, "../shared/corpus is absent beside the checkout") }
}

extension CLI {
    /// The test process's environment without Slurm's or Kubernetes' shard variables, plus `extra`.
    static func childEnvironment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("SLURM_") && $0.key != "JOB_COMPLETION_INDEX" && $0.key != "VIGNETTE_SHARD_COUNT"
        }
        environment.merge(extra) { _, new in new }
        return environment
    }
}
