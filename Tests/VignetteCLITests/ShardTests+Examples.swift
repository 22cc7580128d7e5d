import Foundation
import Testing

/// The examples/ folder, run the way the schedulers run it.
extension ShardTests {
    static let bash = ["/bin/bash", "/usr/bin/bash"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("examples/slurm-array.sh, run as Slurm runs each task of its array, makes the whole batch; a requeued task redoes nothing",
          .enabled(if: ShardTests.bash != nil, "bash is not installed"))
    func slurmExample() async throws {
        let bash = try #require(Self.bash)
        let binary = try #require(CLI.binary, "the vignette binary is not built")
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        // Not made here: the script makes it.
        let out = batch.appendingPathComponent("thumbs")
        let script = CLI.repository.appendingPathComponent("examples/slurm-array.sh")
        let text = try String(contentsOf: script, encoding: .utf8)
        // The tasks are the script's own #SBATCH --array=A-B.
        let array = try #require(text.split(separator: "\n").first { $0.hasPrefix("#SBATCH --array=") })
        let bounds = array.dropFirst("#SBATCH --array=".count).split(separator: "-").compactMap { Int($0) }
        try #require(bounds.count == 2, "\(array)")
        let tasks = Array(bounds[0]...bounds[1])
        #expect(tasks == [0, 1, 2, 3])
        #expect(text.contains("--shard auto") && text.contains("--skip-existing"))

        func runTask(_ task: Int) async throws -> CLIResult {
            // What Slurm sets in each task of `sbatch --array=0-3` (with --cpus-per-task=4 taken down to 1 here).
            let process = try CLI.start(bash, [script.path], environment: [
                "VIGNETTE": binary.path, "INPUT": batch.appendingPathComponent("in").path, "OUT": out.path, "SIZE": "64",
                "SLURM_JOB_ID": String(4242 + task), "SLURM_ARRAY_JOB_ID": "4242", "SLURM_ARRAY_TASK_ID": String(task),
                "SLURM_ARRAY_TASK_COUNT": String(tasks.count), "SLURM_ARRAY_TASK_MIN": String(bounds[0]),
                "SLURM_ARRAY_TASK_MAX": String(bounds[1]), "SLURM_ARRAY_TASK_STEP": "1", "SLURM_CPUS_PER_TASK": "1",
            ])
            return await CLI.finish(process)
        }

        var reported: [String] = []
        for task in tasks {
            let result = try await runTask(task)
            #expect(result.status == 0, "task \(task): \(result.stderr)")
            #expect(result.stderr.hasPrefix("vignette: shard \(task - bounds[0])/\(tasks.count): "), "\(result.stderr)")
            let report = try String(contentsOf: out.appendingPathComponent("report-\(task).json"), encoding: .utf8)
            let mine = try Self.inputs(inReport: report)
            for input in mine { #expect(Self.shard(of: Self.key(input), count: tasks.count) == task - bounds[0], "\(input)") }
            reported += mine
        }
        #expect(reported.count == 14 && Set(reported).count == 14)
        let whole = batch.appendingPathComponent("whole")
        let all = try await CLI.run(["thumbnail", batch.appendingPathComponent("in").path, "--size", "64", "--out", whole.path])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try Self.files(in: whole).count == 14)
        #expect(try Self.files(in: out) == Self.files(in: whole))

        // Slurm requeues a task: it skips everything, touching no thumbnail.
        let before = try Self.identities(in: out).filter { !$0.key.hasSuffix(".json") }
        let requeued = try await runTask(2)
        #expect(requeued.status == 0, "\(requeued.stderr)")
        let again = try Self.results(inReport: String(contentsOf: out.appendingPathComponent("report-2.json"), encoding: .utf8))
        #expect(!again.isEmpty && again.allSatisfy { $0["skipped"] as? Bool == true })
        #expect(try Self.identities(in: out).filter { !$0.key.hasSuffix(".json") } == before)
    }

    @Test("examples/k8s-indexed-job.yaml: an Indexed Job whose VIGNETTE_SHARD_COUNT equals its completions; its pods' command, run for every index, makes the whole batch")
    func kubernetesExample() async throws {
        let text = try String(contentsOf: CLI.repository.appendingPathComponent("examples/k8s-indexed-job.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#") }
        func value(of key: String) -> String? {
            lines.first { $0.hasPrefix(key + ":") }.map { $0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces) }
        }
        #expect(value(of: "kind") == "Job")
        #expect(value(of: "completionMode") == "Indexed")
        let completions = try #require(value(of: "completions").flatMap { Int($0) })
        #expect(completions == 4)
        #expect(value(of: "parallelism").flatMap { Int($0) } == completions)
        let variable = try #require(lines.firstIndex(of: "- name: VIGNETTE_SHARD_COUNT"), "no VIGNETTE_SHARD_COUNT in the manifest")
        let count = try #require(lines.dropFirst(variable + 1).first?.split(separator: "\"").dropFirst().first.map(String.init))
        #expect(count == String(completions))
        // A volume shared by the pods, mounted where the command reads and writes.
        let mount = try #require(value(of: "mountPath"))
        #expect(lines.contains("volumes:") && lines.contains { $0.hasPrefix("claimName:") })

        // The container's command (a flow sequence of quoted strings, valid JSON), as each pod runs it,
        // with the volume mounted at a folder of the test's.
        let start = try #require(text.range(of: "command: ["))
        let end = try #require(text[start.upperBound...].firstIndex(of: "]"))
        let command = try #require(try JSONSerialization.jsonObject(with: Data(("[" + text[start.upperBound...end]).utf8)) as? [String])
        #expect(command.first == "vignette" && command.contains("--skip-existing"), "\(command)")
        #expect(command.joined(separator: " ").contains("--shard auto"), "\(command)")
        let volume = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: volume) }
        let batch = try Self.batch()
        defer { try? FileManager.default.removeItem(at: batch) }
        let arguments = command.dropFirst().map { $0.hasPrefix(mount + "/") ? volume.path + $0.dropFirst(mount.count) : $0 }
        let inputFolder = try #require(arguments.dropFirst().first, "\(command)")
        try FileManager.default.moveItem(at: batch.appendingPathComponent("in"), to: URL(fileURLWithPath: inputFolder))
        let outIndex = try #require(arguments.firstIndex(of: "--out"))
        let out = URL(fileURLWithPath: arguments[outIndex + 1])
        #expect(out.path.hasPrefix(volume.path))

        var seen: [String] = []
        for index in 0..<completions {
            let result = try await CLI.run(Array(arguments) + ["--json"], environment: ["JOB_COMPLETION_INDEX": String(index), "VIGNETTE_SHARD_COUNT": count])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("vignette: shard \(index)/\(completions): "), "\(result.stderr)")
            seen += try Self.inputs(inReport: result.stdout)
        }
        #expect(seen.count == 14 && Set(seen).count == 14)
        let whole = batch.appendingPathComponent("whole")
        let unsharded = arguments.filter { $0 != "--skip-existing" }
        let shardAt = try #require(unsharded.firstIndex(of: "--shard"))
        var plain = unsharded
        plain.removeSubrange(shardAt...(shardAt + 1))
        let outAt = try #require(plain.firstIndex(of: "--out"))
        plain[outAt + 1] = whole.path
        let all = try await CLI.run(plain)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try Self.files(in: whole).count == 14)
        #expect(try Self.files(in: out) == Self.files(in: whole))
    }
}
