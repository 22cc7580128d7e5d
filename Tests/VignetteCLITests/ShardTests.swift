import Foundation
import Testing

@Suite("vignette thumbnail --shard")
struct ShardTests {
    /// A batch folder: good fixtures, some in a subfolder, and two inputs whose names collide
    /// (photo.jpg and photo.png keep their extensions in their output names).
    /// The batch is `in/` of the folder returned; outputs go beside it.
    static func batch() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-shard-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("in")
        let nested = folder.appendingPathComponent("nested/deeper")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let names = ["baseline.jpg", "progressive.jpg", "lossy.webp", "lossless.webp", "alpha.png", "rgb8.png", "palette.png",
                     "orientation-6.jpg", "cmyk.jpg", "grey-alpha.png", "exif-thumbnail.jpg", "avif.avif"]
        for (offset, name) in names.enumerated() {
            let target = (offset % 3 == 0 ? nested : folder).appendingPathComponent(name)
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent(name), to: target)
        }
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("baseline.jpg"), to: folder.appendingPathComponent("photo.jpg"))
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("rgb8.png"), to: folder.appendingPathComponent("photo.png"))
        return root
    }

    static func files(in folder: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasSuffix(".json") {
            found[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return found
    }

    static func results(inReport stdout: String) throws -> [[String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return try #require(report["results"] as? [[String: Any]])
    }

    static func inputs(inReport stdout: String) throws -> [String] {
        try results(inReport: stdout).compactMap { $0["input"] as? String }
    }

    @Test("3 shards cover every input exactly once, and their outputs are the unsharded run's, byte for byte")
    func shardsCoverTheBatch() async throws {
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        let whole = batch.appendingPathComponent("out-whole"), sharded = batch.appendingPathComponent("out-sharded")
        let all = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "64", "--out", whole.path, "--json", "--jobs", "2"])
        #expect(all.status == 0, "\(all.stderr)")
        var seen: [String] = []
        for k in 0..<3 {
            let part = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "64", "--out", sharded.path, "--json", "--shard", "\(k)/3"])
            #expect(part.status == 0, "\(part.stderr)")
            let mine = try Self.inputs(inReport: part.stdout)
            #expect(part.stderr.contains("shard \(k)/3: \(mine.count) of 14 inputs"), "\(part.stderr)")
            seen += mine
        }
        #expect(seen.count == 14 && Set(seen).count == 14)
        #expect(Set(seen) == Set(try Self.inputs(inReport: all.stdout)))
        let wholeFiles = try Self.files(in: whole), shardedFiles = try Self.files(in: sharded)
        #expect(wholeFiles.count == 14)
        #expect(wholeFiles == shardedFiles)
        // A rerun of any shard with --skip-existing writes nothing.
        for k in 0..<3 {
            let rerun = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "64", "--out", sharded.path, "--json",
                                           "--shard", "\(k)/3", "--skip-existing"])
            let results = try Self.results(inReport: rerun.stdout)
            #expect(rerun.status == 0 && !results.isEmpty && results.allSatisfy { $0["skipped"] as? Bool == true }, "\(rerun.stdout)")
        }
        #expect(try Self.files(in: sharded) == wholeFiles)
    }

    @Test("the hash is stable: the same key lands in the same shard in every process")
    func stableAcrossProcesses() async throws {
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        let first = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "32", "--out", batch.appendingPathComponent("a").path, "--json", "--shard", "1/4"])
        let second = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "32", "--out", batch.appendingPathComponent("b").path, "--json", "--shard", "1/4"])
        #expect(try Self.inputs(inReport: first.stdout).sorted() == Self.inputs(inReport: second.stdout).sorted())
    }

    @Test("--shard auto under Slurm's variables (with an array minimum and a step) and Kubernetes' (count by flag and by env)")
    func automatic() async throws {
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        func run(_ extra: [String], _ environment: [String: String]) async throws -> [String] {
            let result = try await CLI.run(
                ["thumbnail", batch.appendingPathComponent("in").path, "--size", "32", "--out", batch.appendingPathComponent("o").path, "--json", "--shard", "auto"] + extra,
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return try Self.inputs(inReport: result.stdout).sorted()
        }
        func explicit(_ k: Int, _ n: Int) async throws -> [String] {
            let result = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "32", "--out", batch.appendingPathComponent("o").path, "--json", "--shard", "\(k)/\(n)"])
            return try Self.inputs(inReport: result.stdout).sorted()
        }
        #expect(try await run([], ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"]) == explicit(2, 3))
        // An array 1-3: task ids 1, 2, 3 are shards 0, 1, 2.
        #expect(try await run([], ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"]) == explicit(0, 3))
        // An array 0-6:3: task ids 0, 3, 6 are shards 0, 1, 2.
        #expect(try await run([], ["SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0",
                                   "SLURM_ARRAY_TASK_STEP": "3"]) == explicit(2, 3))
        #expect(try await run(["--shard-count", "2"], ["JOB_COMPLETION_INDEX": "1"]) == explicit(1, 2))
        #expect(try await run([], ["JOB_COMPLETION_INDEX": "0", "VIGNETTE_SHARD_COUNT": "2"]) == explicit(0, 2))
    }

    @Test("bad --shard values and missing scheduler variables exit 2 with one line", arguments: [
        (["--shard", "3/3"], [:], "shard 3 is not in 0…2"),
        (["--shard", "1/0"], [:], "at least 1"),
        (["--shard", "a/b"], [:], "--shard takes K/N"),
        (["--shard", "1"], [:], "--shard takes K/N"),
        (["--shard", "auto"], [:], "--shard auto needs"),
        (["--shard", "auto"], ["JOB_COMPLETION_INDEX": "0"], "--shard-count N or VIGNETTE_SHARD_COUNT"),
        (["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "2"], "SLURM_ARRAY_TASK_ID must be a number"),
        (["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "1"], "SLURM_ARRAY_TASK_COUNT is not"),
        (["--shard-count", "2"], [:], "--shard-count goes with --shard auto"),
    ] as [([String], [String: String], String)])
    func refused(arguments: [String], environment: [String: String], message: String) async throws {
        let result = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent("baseline.jpg").path, "--size", "32",
                                        "--out", FileManager.default.temporaryDirectory.appendingPathComponent("vignette-shard-refused").path] + arguments,
                                       environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("examples/slurm-array.sh, run as Slurm runs each task of its array, makes the whole batch")
    func slurmExample() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash"), let binary = CLI.binary else { return }
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        let out = batch.appendingPathComponent("thumbs")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let script = CLI.repository.appendingPathComponent("examples/slurm-array.sh")
        // The script's own #SBATCH --array=0-3: four tasks.
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.contains("#SBATCH --array=0-3"))
        for task in 0..<4 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [script.path]
            process.environment = CLI.childEnvironment([
                "VIGNETTE": binary.path, "INPUT": batch.appendingPathComponent("in").path, "OUT": out.path, "SIZE": "64",
                "SLURM_ARRAY_TASK_ID": String(task), "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0",
                "SLURM_CPUS_PER_TASK": "1",
            ])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "task \(task)")
        }
        let whole = batch.appendingPathComponent("whole")
        _ = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "64", "--out", whole.path])
        #expect(try Self.files(in: out) == Self.files(in: whole))
        var reported: [String] = []
        for task in 0..<4 {
            let report = try String(contentsOf: out.appendingPathComponent("report-\(task).json"), encoding: .utf8)
            reported += try Self.inputs(inReport: report)
        }
        #expect(reported.count == 14 && Set(reported).count == 14)
    }

    @Test("examples/k8s-indexed-job.yaml: an Indexed Job whose VIGNETTE_SHARD_COUNT equals its completions")
    func kubernetesExample() async throws {
        let text = try String(contentsOf: CLI.repository.appendingPathComponent("examples/k8s-indexed-job.yaml"), encoding: .utf8)
        #expect(text.contains("completionMode: Indexed"))
        let completions = try #require(text.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("completions:") })
        let count = completions.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) }
        let shardCount = try #require(text.range(of: "name: VIGNETTE_SHARD_COUNT"))
        let after = text[shardCount.upperBound...].split(separator: "\n").first { $0.contains("value:") }
        #expect(after?.contains("\"\(count ?? "")\"") == true)
        #expect(text.contains("\"--shard\", \"auto\"") && text.contains("\"--skip-existing\""))
        // What each pod runs, as Kubernetes runs it (JOB_COMPLETION_INDEX set per pod) for all indices.
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        var seen: [String] = []
        for index in 0..<(Int(count ?? "") ?? 0) {
            let result = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "32", "--out", batch.appendingPathComponent("k").path,
                                            "--json", "--shard", "auto", "--skip-existing"],
                                           environment: ["JOB_COMPLETION_INDEX": String(index), "VIGNETTE_SHARD_COUNT": count ?? ""])
            #expect(result.status == 0, "\(result.stderr)")
            seen += try Self.inputs(inReport: result.stdout)
        }
        #expect(seen.count == 14 && Set(seen).count == 14)
    }
}
