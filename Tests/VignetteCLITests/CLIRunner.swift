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

    static func run(_ arguments: [String]) async throws -> CLIResult {
        try await finish(start(arguments))
    }

    /// Starts the binary with its output going to pipes; `finish` collects it.
    static func start(_ arguments: [String]) throws -> Process {
        let binary = try #require(binary, "the vignette binary is not built")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }

    /// Waits for the process on a Dispatch thread: blocking Swift's cooperative pool (two threads
    /// on a 2-core machine) would stall the async tests running beside this one.
    static func finish(_ process: Process) async throws -> CLIResult {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try blockingFinish(process) })
            }
        }
    }

    private static func blockingFinish(_ process: Process) throws -> CLIResult {
        let out = try #require(process.standardOutput as? Pipe)
        let err = try #require(process.standardError as? Pipe)
        // Read both pipes while the process runs so that neither fills up.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return CLIResult(
            status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
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

extension Trait where Self == ConditionTrait {
    static var corpus: Self { .enabled(if: CLI.corpusAvailable, "../shared/corpus is absent beside the checkout") }
}
