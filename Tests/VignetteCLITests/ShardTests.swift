import Foundation
import Glibc
import Testing

@Suite("vignette thumbnail --shard")
struct ShardTests {
    /// A batch folder: good fixtures, some in a subfolder, and two inputs whose names differ only in
    /// their extension (photo.jpg and photo.png keep it in their output names, so their names
    /// depend on each other) at the top, whose keys fall in different shards of 3.
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

    /// The output files in `folder` (reports left out), by name.
    static func files(in folder: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasSuffix(".json") {
            found[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return found
    }

    /// Each file's inode and modification time: a file written again (a new file renamed over the
    /// old one, or rewritten in place) changes one of them.
    static func identities(in folder: URL) throws -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            var info = stat()
            #expect(stat(folder.appendingPathComponent(name).path, &info) == 0)
            found[name] = [Int(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
        }
        return found
    }

    static func report(_ stdout: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any], "\(stdout)")
    }

    static func results(inReport stdout: String) throws -> [[String: Any]] {
        try #require(try report(stdout)["results"] as? [[String: Any]])
    }

    static func inputs(inReport stdout: String) throws -> [String] {
        try results(inReport: stdout).compactMap { $0["input"] as? String }
    }

    /// FNV-1a, 64 bits, written here from its definition (offset basis 0xcbf29ce484222325, prime
    /// 0x100000001b3) to check the shards the binary picks against the documented hash.
    static func fnv1a(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    static func shard(of key: String, count: Int) -> Int { Int(fnv1a(key) % UInt64(count)) }

    /// The input's key: its path relative to the batch's `in/` folder.
    static func key(_ input: String) -> String {
        guard let range = input.range(of: "/in/") else { return input }
        return String(input[range.upperBound...])
    }

    @Test("the reference FNV-1a matches the published vectors")
    func referenceHash() {
        #expect(Self.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Self.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Self.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test("3 shards cover every input exactly once, by FNV-1a of the relative path; their outputs are the unsharded run's, byte for byte; --skip-existing then writes nothing")
    func shardsCoverTheBatch() async throws {
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        let input = batch.appendingPathComponent("in").path
        let whole = batch.appendingPathComponent("out-whole"), sharded = batch.appendingPathComponent("out-sharded")
        // The names that depend on each other are split by the hash: this run checks that a shard
        // still names its outputs from the whole batch.
        try #require(Self.shard(of: "photo.jpg", count: 3) != Self.shard(of: "photo.png", count: 3))
        let all = try await CLI.run(["thumbnail", input, "--size", "64", "--out", whole.path, "--json", "--jobs", "2"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try Self.report(all.stdout)["shard"] == nil)
        var seen: [String] = []
        for k in 0..<3 {
            let part = try await CLI.run(["thumbnail", input, "--size", "64", "--out", sharded.path, "--json", "--shard", "\(k)/3"])
            #expect(part.status == 0, "\(part.stderr)")
            let mine = try Self.inputs(inReport: part.stdout)
            #expect(!mine.isEmpty)
            #expect(part.stderrLines == ["vignette: shard \(k)/3: \(mine.count) of 14 inputs"], "\(part.stderr)")
            for input in mine { #expect(Self.shard(of: Self.key(input), count: 3) == k, "\(input) in shard \(k)") }
            let shard = try #require(try Self.report(part.stdout)["shard"] as? [String: Any])
            #expect(shard["index"] as? Int == k && shard["count"] as? Int == 3 && shard["batchInputs"] as? Int == 14, "\(shard)")
            seen += mine
        }
        #expect(seen.count == 14 && Set(seen).count == 14)
        #expect(Set(seen) == Set(try Self.inputs(inReport: all.stdout)))
        let wholeFiles = try Self.files(in: whole), shardedFiles = try Self.files(in: sharded)
        #expect(wholeFiles.count == 14)
        #expect(wholeFiles.keys.contains("photo.jpg.jpg") && wholeFiles.keys.contains("photo.png.jpg"), "\(wholeFiles.keys.sorted())")
        #expect(wholeFiles == shardedFiles)

        // A rerun of every shard, then of the whole batch, with --skip-existing: all skipped, no file touched.
        let before = try Self.identities(in: sharded)
        for shard in ["0/3", "1/3", "2/3", nil] {
            let rerun = try await CLI.run(["thumbnail", input, "--size", "64", "--out", sharded.path, "--json", "--skip-existing"]
                                          + (shard.map { ["--shard", $0] } ?? []))
            let results = try Self.results(inReport: rerun.stdout)
            #expect(rerun.status == 0 && !results.isEmpty && results.allSatisfy { $0["skipped"] as? Bool == true }, "\(rerun.stdout)")
        }
        #expect(try Self.identities(in: sharded) == before)
        #expect(try Self.files(in: sharded) == wholeFiles)
    }

    @Test("inputs with the same name in different folders stay in one shard, which settles between them as the unsharded run does; a pattern matching nothing is one shard's failure")
    func sameNameInTwoFolders() async throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("in")
        for sub in ["a", "b"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        // Sizes differ, so that with --jobs 1 (biggest first) the same one claims photo.jpg.jpg in every run.
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("cmyk.jpg"), to: folder.appendingPathComponent("a/photo.jpg"))
        try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent("baseline.jpg"), to: folder.appendingPathComponent("b/photo.jpg"))
        for name in ["lossy.webp", "palette.png", "progressive.jpg"] {
            try FileManager.default.copyItem(at: CLI.fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        // By their own keys the two would fall in different shards, and both would write photo.jpg.jpg.
        try #require(Self.shard(of: "a/photo.jpg", count: 3) != Self.shard(of: "b/photo.jpg", count: 3))
        let pattern = folder.appendingPathComponent("missing-*.jpg").path
        let arguments = ["thumbnail", folder.path, pattern, "--size", "48", "--json", "--jobs", "1"]

        let whole = root.appendingPathComponent("whole")
        let all = try await CLI.run(arguments + ["--out", whole.path])
        #expect(all.status == 1)
        let failures = try Self.results(inReport: all.stdout).filter { $0["error"] is String }
        #expect(Set(failures.compactMap { $0["input"] as? String }) == [folder.appendingPathComponent("b/photo.jpg").path, pattern], "\(failures)")

        let sharded = root.appendingPathComponent("sharded")
        var shardFailures: [String] = [], holders: [Int] = []
        for k in 0..<3 {
            let part = try await CLI.run(arguments + ["--out", sharded.path, "--shard", "\(k)/3"])
            let results = try Self.results(inReport: part.stdout)
            // Exit status 1 exactly in the shards that have a failure, each failure one line.
            let failed = results.filter { $0["error"] is String }.count
            #expect(part.status == (failed > 0 ? 1 : 0), "shard \(k): \(part.stderr)")
            #expect(part.stderrLines.count == 1 + failed, "shard \(k): \(part.stderr)")
            let names = Set(results.compactMap { $0["input"] as? String }.map(Self.key))
            if names.contains("a/photo.jpg") || names.contains("b/photo.jpg") {
                #expect(names.isSuperset(of: ["a/photo.jpg", "b/photo.jpg"]), "shard \(k): \(names)")
                holders.append(k)
            }
            shardFailures += results.filter { $0["error"] is String }.compactMap { $0["input"] as? String }
        }
        #expect(holders.count == 1, "\(holders)")
        #expect(shardFailures.sorted() == failures.compactMap { $0["input"] as? String }.sorted())
        let wholeFiles = try Self.files(in: whole)
        #expect(wholeFiles.count == 4 && wholeFiles.keys.contains("photo.jpg.jpg"), "\(wholeFiles.keys.sorted())")
        #expect(try Self.files(in: sharded) == wholeFiles)
    }

    @Test("the hash is stable: the same keys land in the same shard whatever the folder is called or where it is")
    func stableAcrossProcessesAndPlaces() async throws {
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        let first = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "32", "--out", batch.appendingPathComponent("a").path, "--json", "--shard", "1/4"])
        // The same folder under another name and another parent: the relative paths are the keys.
        let moved = batch.appendingPathComponent("elsewhere/renamed")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: batch.appendingPathComponent("in"), to: moved)
        let second = try await CLI.run(["thumbnail", moved.path + "/", "--size", "32", "--out", batch.appendingPathComponent("b").path, "--json", "--shard", "1/4"])
        let firstKeys = try Self.inputs(inReport: first.stdout).map(Self.key).sorted()
        let secondKeys = try Self.inputs(inReport: second.stdout).map { String($0.dropFirst(moved.path.count + 1)) }.sorted()
        #expect(!firstKeys.isEmpty)
        #expect(firstKeys == secondKeys)
    }

    @Test("--shard auto under Slurm's variables (with an array minimum and a step) and Kubernetes' (count by flag and by env)")
    func automatic() async throws {
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        let input = batch.appendingPathComponent("in").path
        func run(_ extra: [String], _ environment: [String: String], line: String) async throws -> [String] {
            let result = try await CLI.run(
                ["thumbnail", input, "--size", "32", "--out", batch.appendingPathComponent("o").path, "--json", "--shard", "auto"] + extra,
                environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.hasPrefix(line), "\(result.stderr)")
            return try Self.inputs(inReport: result.stdout).sorted()
        }
        func expected(_ k: Int, _ n: Int) throws -> [String] {
            let all = try FileManager.default.subpathsOfDirectory(atPath: input).filter { $0.contains(".") }
            let mine = all.filter { Self.shard(of: $0, count: n) == k }.map { input + "/" + $0 }.sorted()
            try #require(!mine.isEmpty, "shard \(k)/\(n) of the test batch is empty")
            return mine
        }
        #expect(try await run([], ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"], line: "vignette: shard 2/3:") == expected(2, 3))
        // An array 1-3: task ids 1, 2, 3 are shards 0, 1, 2.
        #expect(try await run([], ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1",
                                   "SLURM_ARRAY_TASK_MAX": "3"], line: "vignette: shard 0/3:") == expected(0, 3))
        #expect(try await run([], ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1",
                                   "SLURM_ARRAY_TASK_MAX": "3"], line: "vignette: shard 2/3:") == expected(2, 3))
        // An array 0-6:3: task ids 0, 3, 6 are shards 0, 1, 2.
        #expect(try await run([], ["SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0",
                                   "SLURM_ARRAY_TASK_STEP": "3"], line: "vignette: shard 2/3:") == expected(2, 3))
        #expect(try await run(["--shard-count", "2"], ["JOB_COMPLETION_INDEX": "1"], line: "vignette: shard 1/2:") == expected(1, 2))
        #expect(try await run([], ["JOB_COMPLETION_INDEX": "0", "VIGNETTE_SHARD_COUNT": "2"], line: "vignette: shard 0/2:") == expected(0, 2))
        // The flag wins over the variable.
        #expect(try await run(["--shard-count", "2"], ["JOB_COMPLETION_INDEX": "1", "VIGNETTE_SHARD_COUNT": "5"], line: "vignette: shard 1/2:") == expected(1, 2))
    }

    @Test("bad --shard values and missing or bad scheduler variables exit 2 with one line, before any work", arguments: [
        (["--shard", "3/3"], [:], "shard 3 is not in 0…2"),
        (["--shard=-1/3"], [:], "shard -1 is not in 0…2"),
        (["--shard", "1/0"], [:], "the number of shards must be at least 1, got 0"),
        (["--shard", "a/b"], [:], "--shard takes K/N (e.g. 0/4) or auto, got a/b"),
        (["--shard", "1"], [:], "--shard takes K/N"),
        (["--shard", "1/3/5"], [:], "--shard takes K/N"),
        (["--shard", "0/"], [:], "--shard takes K/N"),
        (["--shard", "Auto"], [:], "--shard takes K/N"),
        (["--shard", "auto"], [:], "--shard auto needs SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT"),
        (["--shard", "auto"], ["JOB_COMPLETION_INDEX": "0"], "needs the number of completions: --shard-count N or VIGNETTE_SHARD_COUNT"),
        (["--shard", "auto"], ["JOB_COMPLETION_INDEX": "x", "VIGNETTE_SHARD_COUNT": "2"], "JOB_COMPLETION_INDEX must be a number, got x"),
        (["--shard", "auto"], ["JOB_COMPLETION_INDEX": "0", "VIGNETTE_SHARD_COUNT": "four"], "VIGNETTE_SHARD_COUNT must be a number, got four"),
        (["--shard", "auto"], ["JOB_COMPLETION_INDEX": "4", "VIGNETTE_SHARD_COUNT": "4"], "shard 4 is not in 0…3"),
        (["--shard", "auto", "--shard-count", "0"], ["JOB_COMPLETION_INDEX": "0"], "must be at least 1, got 0"),
        (["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "2"], "SLURM_ARRAY_TASK_ID must be a number, got x"),
        (["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "two"], "SLURM_ARRAY_TASK_COUNT must be a number"),
        (["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "one"], "SLURM_ARRAY_TASK_MIN must be a number"),
        (["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "1"], "SLURM_ARRAY_TASK_COUNT is not"),
        (["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"], "shard -1 is not in 0…3"),
        (["--shard-count", "2"], [:], "--shard-count goes with --shard auto"),
        (["--shard", "0/2", "--shard-count", "2"], [:], "--shard-count goes with --shard auto"),
    ] as [([String], [String: String], String)])
    func refused(arguments: [String], environment: [String: String], message: String) async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-shard-refused-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent("baseline.jpg").path, "--size", "32",
                                        "--out", out.path] + arguments,
                                       environment: environment)
        #expect(result.status == 2)
        #expect(result.stderrLines.count == 1 && result.stderr.hasPrefix("vignette: "), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out.path), "the output folder was made")
    }
}
