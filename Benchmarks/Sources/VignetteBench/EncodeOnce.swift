import Foundation
import Vignette

/// `encode`: decodes FILE once (timed apart as `decode_seconds`), then encodes the whole image in the
/// given format at the given quality, with Vignette's defaults otherwise (`HEIFOptions.speed` 9),
/// `--runs` times; prints the median encode time and the size.
enum EncodeOnce {
    static let usage = "encode --input FILE --format heic|avif|webp|jpeg|png [--quality Q] [--runs N] [--output OUT]"

    static func run(_ arguments: ArraySlice<String>) throws -> String {
        let parsed = try Arguments(arguments, known: ["input", "format", "quality", "runs", "output"])
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument \(parsed.positionals[0])") }
        let input = try parsed.required("input")
        let formatName = try parsed.required("format")
        let quality = Int(try parsed.double("quality", default: 50))
        let runs = max(1, Int(try parsed.double("runs", default: 1)))
        let format: EncodingFormat
        switch formatName {
        case "heic": format = .heic(HEIFOptions(quality: quality))
        case "avif": format = .avif(HEIFOptions(quality: quality))
        case "webp": format = .webp(WebPOptions(quality: quality))
        case "jpeg": format = .jpeg(JPEGOptions(quality: quality))
        case "png": format = .png(PNGOptions())
        default: throw UsageError("--format must be heic, avif, webp, jpeg or png, got \(formatName)")
        }
        let threads = try Runtime.applyThreadSetting()
        let clock = ContinuousClock()
        let decodeStart = clock.now
        let source = try ImageDecoder().decode(fileAt: input).autoOriented().materialized()
        let decodeSeconds = (clock.now - decodeStart).seconds

        var times: [Double] = []
        var encoded = Data()
        for _ in 0..<runs {
            let start = clock.now
            encoded = try ImageEncoder.encode(source, as: format)
            times.append((clock.now - start).seconds)
        }
        let seconds = times.sorted()[times.count / 2]

        if let output = parsed.options["output"] {
            do {
                try encoded.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw UsageError("cannot write \(output): \(error.localizedDescription)")
            }
        }
        var line = JSONLine()
        line.add("tool", "vignette")
        line.add("format", formatName)
        line.add("quality", quality)
        line.add("seconds", seconds)
        line.add("bytes", encoded.count)
        line.add("runs", runs)
        line.add("decode_seconds", decodeSeconds)
        line.add("width", source.width)
        line.add("height", source.height)
        line.add("threads", threads)
        return line.text
    }
}
