extension ShardSelection {
    /// The positions of a batch's inputs that this shard makes, worked out from the whole batch
    /// (every shard sees the same one) before any input is read.
    ///
    /// Each input is hashed by its `keys` entry (see `InputExpansion.Result.shardKeys`), except
    /// inputs that share their `{name}` (`stems`, worked out over the whole batch) with another
    /// input: those are all hashed by that name, so one shard has every input that could claim the
    /// same output file, and settles between them as the unsharded run does (the first to claim the
    /// file writes it, the others fail with "its output … is already the output of …"). Two shards
    /// never write the same file.
    func positions(keys: [String], stems: [String]) -> [Int] {
        var sharing: [String: Int] = [:]
        for stem in stems { sharing[stem, default: 0] += 1 }
        return zip(keys, stems).enumerated().compactMap { position, input in
            let (key, stem) = input
            return contains(key: sharing[stem, default: 0] > 1 ? stem : key) ? position : nil
        }
    }
}
