#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteCodecs

/// What `vignette thumbnail --json` prints: one entry per input plus totals.
struct ThumbnailReport {
    struct Written {
        let output: String
        let width: Int
        let height: Int
        let bytes: Int
    }

    private var entries: [JSONValue] = []
    private(set) var succeeded = 0
    private(set) var failed = 0
    private var bytes = 0
    private var totalMilliseconds = 0.0

    mutating func add(input: String, result: Written, elapsed: Duration) {
        let ms = elapsed.milliseconds
        entries.append(entry(input: input, output: .string(result.output), width: .int(result.width),
                             height: .int(result.height), bytes: .int(result.bytes), ms: ms, error: .null))
        succeeded += 1
        bytes += result.bytes
        totalMilliseconds += ms
    }

    mutating func add(input: String, error: Error, elapsed: Duration) {
        let ms = elapsed.milliseconds
        let reason = (error as? ImagingError)?.message ?? "\(error)"
        entries.append(entry(input: input, output: .null, width: .null, height: .null, bytes: .null, ms: ms,
                             error: .string(reason)))
        failed += 1
        totalMilliseconds += ms
    }

    private func entry(
        input: String, output: JSONValue, width: JSONValue, height: JSONValue, bytes: JSONValue, ms: Double,
        error: JSONValue
    ) -> JSONValue {
        .object([
            ("input", .string(input)), ("output", output), ("width", width), ("height", height),
            ("bytes", bytes), ("ms", .double(ms.roundedToTenths)), ("cached", .bool(false)), ("error", error),
        ])
    }

    var json: String {
        JSONValue.object([
            ("results", .array(entries)),
            ("totals", .object([
                ("inputs", .int(succeeded + failed)), ("succeeded", .int(succeeded)), ("failed", .int(failed)),
                ("bytes", .int(bytes)), ("ms", .double(totalMilliseconds.roundedToTenths)),
            ])),
        ]).text
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
