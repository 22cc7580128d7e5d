import Foundation
import Glibc
import Testing

/// Whether this test process (and so the `vignette` it runs) is built with a sanitizer, whose shadow
/// memory makes peak-memory figures meaningless (ThreadSanitizer's alone is about 2 GB resident).
let isSanitized: Bool = {
    let process = dlopen(nil, RTLD_NOW)
    defer { if let process { dlclose(process) } }
    let names: [String] = ["__tsan_init", "__asan_init"]
    return names.contains { name in dlsym(process, name) != nil }
}()

/// A run of the `vignette` binary with its peak memory, read from `wait4`'s resource usage.
struct MeasuredRun {
    let status: Int32
    let signal: Int32?
    /// Peak resident memory of the child, in bytes (`ru_maxrss`).
    let peakBytes: Int
    let stdout: String
    let stderr: String

    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// Runs the binary with posix_spawn, its output in temporary files, and waits with wait4.
    static func run(_ arguments: [String]) throws -> MeasuredRun {
        let binary = try #require(CLI.binary, "the vignette binary is not built")
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outPath = folder.appendingPathComponent("stdout").path
        let errPath = folder.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, environ)
        try #require(spawned == 0, "posix_spawn failed: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            try #require(errno == EINTR, "wait4 failed: \(errno)")
        }
        let exited = status & 0x7F == 0
        return MeasuredRun(
            status: exited ? (status >> 8) & 0xFF : -1, signal: exited ? nil : status & 0x7F,
            peakBytes: Int(usage.ru_maxrss) * 1024,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}

@Suite("Hostile input through the command line: no signal, under 1 GB, every input reported")
struct HostileBatchTests {
    static let hostile = [
        "hostile-progressive.jpg", "hostile-coefficients.jpg", "hostile-missing-data.jpg", "hostile-wide16.png",
        "hostile-canvas.webp", "hostile-coded-size.avif", "huge-declared.png",
    ]
    static let good = ["line-1000x1.jpg", "baseline.jpg", "lossy.webp", "alpha.png"]
    static let gigabyte = 1_000_000_000

    @Test("a batch of hostile and good inputs: every input reported, the good ones written, one line per bad one",
          arguments: ["jpeg", "png", "webp", "avif"])
    func batch(format: String) throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let inputs = (Self.hostile + Self.good).map { CLI.fixtures.appendingPathComponent($0).path }
        let run = try MeasuredRun.run(["thumbnail"] + inputs + ["--size", "256", "--out", out.path, "--format", format, "--json", "--jobs", "2"])
        #expect(run.signal == nil, "ended by signal \(String(describing: run.signal))")
        #expect(run.status == 1)
        #expect(isSanitized || run.peakBytes < Self.gigabyte, "peak \(run.peakBytes) bytes")
        #expect(run.stderrLines.count == Self.hostile.count, "\(run.stderr)")
        for name in Self.hostile {
            #expect(run.stderrLines.contains { $0.contains(name) && $0.contains("over the limit") }, "\(name): \(run.stderr)")
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        #expect(results.count == inputs.count)
        #expect(results.filter { $0["error"] is String }.count == Self.hostile.count)
        #expect(CLI.files(in: out).count == Self.good.count)
    }

    @Test("convert and thumbnail give the same verdict on each hostile input", arguments: hostile)
    func sameVerdict(file: String) throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let input = CLI.fixtures.appendingPathComponent(file).path
        let thumbnail = try MeasuredRun.run(["thumbnail", input, "--size", "256", "--out", out.path])
        let convert = try MeasuredRun.run(["convert", input, out.appendingPathComponent("x.png").path])
        for run in [thumbnail, convert] {
            #expect(run.signal == nil && run.status == 1, "\(file): \(run.status) \(String(describing: run.signal)) \(run.stderr)")
            #expect(run.stderrLines.count == 1 && run.stderr.contains("over the limit"), "\(file): \(run.stderr)")
            #expect(isSanitized || run.peakBytes < Self.gigabyte)
        }
        #expect(CLI.files(in: out).isEmpty)
    }

    @Test("the heaviest corpus inputs stay under 1 GB", .enabled(if: CLI.corpusAvailable, "../shared/corpus is absent"),
          arguments: ["giant-image.jpg", "65536-uint32-limit.png", "2569067123_aca715a2ee_o.jpg", "alpha-premultiply-2048x1536-paper.png"])
    func corpusPeaks(file: String) throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let input = CLI.corpus.appendingPathComponent(file).path
        for arguments in [["thumbnail", input, "--size", "256", "--out", out.path], ["convert", input, out.appendingPathComponent("x.webp").path]] {
            let run = try MeasuredRun.run(arguments)
            #expect(run.signal == nil && run.status <= 1, "\(arguments): \(run.stderr)")
            #expect(isSanitized || run.peakBytes < Self.gigabyte, "\(arguments): peak \(run.peakBytes) bytes")
        }
    }
}
