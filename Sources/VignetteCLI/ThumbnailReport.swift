import Vignette

/// What `vignette thumbnail --json` prints: one entry per input, in input order, plus totals, and
/// with `--shard` which shard this was (`index`, `count`) and how many inputs the whole batch has
/// (`batchInputs`); the other shards' inputs have no entries.
struct ThumbnailReport {
    enum Result {
        case written(ThumbnailJob.Outcome)
        case failed(String)
    }

    struct Entry {
        let input: String
        let result: Result
        let milliseconds: Double
    }

    var entries: [Entry] = []
    var interrupted = false
    /// With `--shard`: this process's shard, and the number of inputs in the whole batch.
    var shard: (selection: ShardSelection, batchInputs: Int)?

    var succeeded: Int { entries.filter { if case .written = $0.result { true } else { false } }.count }
    var failed: Int { entries.count - succeeded }

    var json: String {
        let items: [JSONValue] = entries.map { entry in
            switch entry.result {
            case .written(let outcome):
                var fields: [(String, JSONValue)] = [
                    ("input", .string(entry.input)), ("output", .string(outcome.output)),
                    ("width", .int(outcome.width)), ("height", .int(outcome.height)), ("bytes", .int(outcome.bytes)),
                    ("ms", .double(entry.milliseconds.roundedToTenths)), ("cached", .bool(outcome.cached)),
                    ("skipped", .bool(outcome.skipped)), ("error", .null),
                ]
                if let placeholder = outcome.placeholder { fields.append((placeholder.kind.rawValue, .string(placeholder.value))) }
                if let crop = outcome.crop { fields.append(("crop", .string(crop))) }
                if let choice = outcome.choice { fields.append(("encoding", choice.json)) }
                if let reason = outcome.ignoredProfile { fields.append(("ignoredProfile", .string(reason))) }
                return .object(fields)
            case .failed(let reason):
                return .object([
                    ("input", .string(entry.input)), ("output", .null), ("width", .null), ("height", .null),
                    ("bytes", .null), ("ms", .double(entry.milliseconds.roundedToTenths)), ("cached", .bool(false)),
                    ("skipped", .bool(false)), ("error", .string(reason)),
                ])
            }
        }
        var bytes = 0, cached = 0, skipped = 0
        for entry in entries {
            if case .written(let outcome) = entry.result {
                bytes += outcome.bytes
                if outcome.cached { cached += 1 }
                if outcome.skipped { skipped += 1 }
            }
        }
        let totalMilliseconds = entries.reduce(0) { $0 + $1.milliseconds }
        var fields: [(String, JSONValue)] = [
            ("results", .array(items)),
            ("totals", .object([
                ("inputs", .int(entries.count)), ("succeeded", .int(succeeded)), ("failed", .int(failed)),
                ("cached", .int(cached)), ("skipped", .int(skipped)), ("bytes", .int(bytes)),
                ("ms", .double(totalMilliseconds.roundedToTenths)), ("interrupted", .bool(interrupted)),
            ])),
        ]
        if let shard {
            fields.append(("shard", .object([
                ("index", .int(shard.selection.index)), ("count", .int(shard.selection.count)),
                ("batchInputs", .int(shard.batchInputs)),
            ])))
        }
        return JSONValue.object(fields).text
    }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

extension Double {
    var roundedToTenths: Double { (self * 10).rounded() / 10 }
}
