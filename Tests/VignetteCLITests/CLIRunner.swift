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

    static func run(_ arguments: [String], environment: [String: String]? = nil) async throws -> CLIResult {
        try await finish(start(arguments, environment: environment))
    }

    /// Starts the binary with its output going to pipes; `finish` collects it. `environment`, when
    /// given, is added to the test process's own, without any scheduler variables of its own.
    static func start(_ arguments: [String], input: FileHandle? = nil, environment: [String: String]? = nil) throws -> Process {
        let binary = try #require(binary, "the vignette binary is not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let environment { process.environment = childEnvironment(environment) }
        if let input { process.standardInput = input }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Waits for the process on a Dispatch thread: blocking Swift's cooperative pool (two threads
    /// on a 2-core machine) would stall the async tests running beside this one.
    static func finish(_ process: Process) async throws -> CLIResult {
        try await finish(process, killAfter: nil).result
    }

    /// `finish`, killing the process (SIGKILL) once it has run `limit`. The watch runs on the
    /// waiting thread itself: Dispatch's pool on Linux has few threads, all of them possibly
    /// blocked in other tests' waits, so a separate timer might never fire.
    static func finish(_ process: Process, killAfter limit: Duration?) async throws -> (result: CLIResult, killed: Bool) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try blockingFinish(process, killAfter: limit) })
            }
        }
    }

    private static func blockingFinish(_ process: Process, killAfter limit: Duration?) throws -> (CLIResult, Bool) {
        let out = try #require(process.standardOutput as? Pipe)
        let err = try #require(process.standardError as? Pipe)
        // Read both pipes while the process runs so that neither fills up.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        var killed = false
        if let limit {
            let deadline = ContinuousClock.now + limit
            while !hasExited(process.processIdentifier) {
                if ContinuousClock.now >= deadline {
                    // Not reaped yet (waitid left it waitable), so the pid is still this child's.
                    kill(process.processIdentifier, SIGKILL)
                    killed = true
                    break
                }
                usleep(5_000)
            }
        }
        process.waitUntilExit()
        group.wait()
        let result = CLIResult(
            status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
        return (result, killed)
    }

    /// Whether the child `pid` has exited, asked of the kernel without reaping it (`WNOWAIT`), so
    /// that Foundation still collects its status. `Process.isRunning` is not enough: Foundation
    /// learns of the exit on a Dispatch queue, which a loaded test run can hold up for seconds, and
    /// a child that had long exited would be counted as killed.
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        while true {
            let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
            if result == -1, errno == EINTR { continue }
            // -1 (ECHILD): Foundation has reaped it already. 0 with no pid: still running.
            return result == -1 || info._sifields._sigchld.si_pid == pid
        }
    }

    /// Runs the binary like `run`, but kills it (SIGKILL) when it is still running after `limit`:
    /// a test of something that must not block fails instead of hanging. `elapsed` is the wall time.
    static func run(
        _ arguments: [String], killAfter limit: Duration, input: FileHandle? = nil
    ) async throws -> (result: CLIResult, elapsed: Duration, killed: Bool) {
        let started = ContinuousClock.now
        let process = try start(arguments, input: input)
        let (result, killed) = try await finish(process, killAfter: limit)
        return (result, ContinuousClock.now - started, killed)
    }

    /// Sends `signal` to `process` from a thread of its own once `ready()` holds (or after `within`):
    /// Swift's pool can be held for seconds by the CPU-bound tests running beside this one, long
    /// enough for a whole batch to finish.
    static func send(_ signal: Int32, to process: Process, within: Duration = .seconds(30), when ready: @escaping @Sendable () -> Bool) {
        let pid = process.processIdentifier
        // A thread of its own: Dispatch's few pool threads may all be blocked in waits.
        Thread.detachNewThread {
            let deadline = ContinuousClock.now + within
            while !ready(), ContinuousClock.now < deadline { usleep(2_000) }
            kill(pid, signal)
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
