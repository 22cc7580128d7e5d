/// `--shard K/N`: the share of a batch one process makes, so that N processes (a Slurm job array,
/// a Kubernetes Indexed Job) make a whole batch between them with no coordinator.
///
/// An input belongs to shard `FNV-1a-64(key) mod N`, where the key is the input's path relative
/// to the folder given on the command line (for inputs found in a folder), else the input as given
/// (a path or a URL): the same on every machine and in every process, so shards cover every input
/// exactly once and a rerun picks the same ones. Inputs that share an output name are hashed by
/// that name instead, so that they stay together (see `positions(keys:stems:)`).
struct ShardSelection: Equatable, CustomStringConvertible {
    /// This process's shard, 0 ≤ index < count.
    let index: Int
    /// How many shards the batch is split into.
    let count: Int

    /// A usage problem with `--shard` (exit status 2).
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// "K/N" (0-based K), or "auto": Slurm's `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`
    /// (less `SLURM_ARRAY_TASK_MIN`, divided by `SLURM_ARRAY_TASK_STEP`, when set), else Kubernetes'
    /// `JOB_COMPLETION_INDEX` with the count from `count` (`--shard-count`) or `VIGNETTE_SHARD_COUNT`
    /// (Kubernetes does not export an Indexed Job's completion count).
    static func parse(_ text: String, count: Int?, environment: (String) -> String?) throws(Problem) -> ShardSelection {
        if text == "auto" { return try automatic(count: count, environment: environment) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let total = Int(parts[1]) else {
            throw Problem("--shard takes K/N (e.g. 0/4) or auto, got \(text)")
        }
        return try checked(index: index, count: total, source: "--shard \(text)")
    }

    private static func automatic(count: Int?, environment: (String) -> String?) throws(Problem) -> ShardSelection {
        func number(_ name: String) throws(Problem) -> Int? {
            guard let text = environment(name) else { return nil }
            guard let value = Int(text) else { throw Problem("\(name) must be a number, got \(text)") }
            return value
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            guard let total = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw Problem("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            let step = max(1, try number("SLURM_ARRAY_TASK_STEP") ?? 1)
            guard (id - minimum) % step == 0 else {
                throw Problem("--shard auto: SLURM_ARRAY_TASK_ID \(id) is not on the array's step \(step) from \(minimum)")
            }
            return try checked(index: (id - minimum) / step, count: total, source: "Slurm's array task \(id)")
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            // The flag, when given, wins; the variable is not read then.
            let total: Int
            if let count { total = count } else if let fromEnvironment = try number("VIGNETTE_SHARD_COUNT") {
                total = fromEnvironment
            } else {
                throw Problem("--shard auto under a Kubernetes Indexed Job needs the number of completions: --shard-count N or VIGNETTE_SHARD_COUNT")
            }
            return try checked(index: index, count: total, source: "JOB_COMPLETION_INDEX \(index)")
        }
        throw Problem("--shard auto needs SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm job array) or JOB_COMPLETION_INDEX (a Kubernetes Indexed Job)")
    }

    private static func checked(index: Int, count: Int, source: String) throws(Problem) -> ShardSelection {
        guard count >= 1 else { throw Problem("\(source): the number of shards must be at least 1, got \(count)") }
        guard (0..<count).contains(index) else { throw Problem("\(source): shard \(index) is not in 0…\(count - 1)") }
        return ShardSelection(index: index, count: count)
    }

    /// Whether the input with `key` is this shard's.
    func contains(key: String) -> Bool {
        Int(ShardSelection.hash(key) % UInt64(count)) == index
    }

    /// FNV-1a, 64 bits, over the key's UTF-8 bytes (not Swift's `Hasher`, which is seeded anew in
    /// every process).
    static func hash(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// "K/N".
    var description: String { "\(index)/\(count)" }
}
