import Foundation
import Vignette

/// sharp's published tasks, one operation at a time, for a fixed time after a warm-up:
/// - `jpeg-task`: a JPEG in memory, fitted inside 720×588 with Lanczos 3, encoded as JPEG quality 80;
/// - `png-task`: an RGBA PNG in memory, fitted inside 720×540 with Lanczos 3, encoded as PNG at
///   zlib level 6.
/// Either takes `--format`, `--width`, `--height`, `--quality`, `--compression` and `--speed` to
/// change that: `--format webp` (libwebp, lossy, method 4) and `--format avif` (libheif with aom,
/// 4:2:0, `--speed`, default 9) measure the thumbnail's encoders at thumbnail size. `--tool` names
/// the row (Benchmarks/jpeg-dc.sh runs the task with `VIGNETTE_JPEG_FAST_DC` on and off).
enum JPEGTask {
    static let usage = "jpeg-task|png-task --input FILE --seconds S [--warmup S] [--method shrinkOnLoad|vipsThumbnail] [--format jpeg|png|webp|avif] [--width W] [--height H] [--quality Q] [--compression Z] [--speed S] [--output OUT] [--operations N] [--tool NAME]"

    static func run(_ arguments: ArraySlice<String>, defaultFormat: String = "jpeg") throws -> String {
        let parsed = try Arguments(arguments, known: ["input", "seconds", "warmup", "method", "output",
                                                      "format", "width", "height", "quality", "compression", "speed",
                                                      "operations", "tool"])
        guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument \(parsed.positionals[0])") }
        let input = try parsed.required("input")
        let seconds = try parsed.double("seconds", default: 10)
        let warmup = try parsed.double("warmup", default: 1, allowZero: true)
        let methodName = parsed.options["method"] ?? ThumbnailOptions.Method.shrinkOnLoad.rawValue
        guard let method = ThumbnailOptions.Method(rawValue: methodName) else {
            throw UsageError("--method must be one of \(ThumbnailOptions.Method.allCases.map(\.rawValue).joined(separator: ", ")), got \(methodName)")
        }
        let formatName = parsed.options["format"] ?? defaultFormat
        guard ["jpeg", "png", "webp", "avif"].contains(formatName) else {
            throw UsageError("--format must be jpeg, png, webp or avif, got \(formatName)")
        }
        let isPNG = formatName == "png"
        let width = Int(try parsed.double("width", default: isPNG ? 720 : 720))
        let height = Int(try parsed.double("height", default: isPNG ? 540 : 588))
        let quality = Int(try parsed.double("quality", default: 80))
        let compression = Int(try parsed.double("compression", default: 6, allowZero: true))
        let speed = Int(try parsed.double("speed", default: 9, allowZero: true))
        // A fixed number of operations instead of a time (no warm-up): for profilers such as
        // callgrind, whose instruction counts are then comparable from run to run.
        let fixedOperations = parsed.options["operations"] == nil ? nil : Int(try parsed.double("operations", default: 1))
        let threads = try Runtime.applyThreadSetting()

        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: input))
        } catch {
            throw UsageError("cannot read \(input): \(error.localizedDescription)")
        }
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(
            width: width, height: height, fit: .inside, kernel: .lanczos3, method: method))
        let encoding: EncodingFormat
        switch formatName {
        case "png": encoding = .png(PNGOptions(compression: compression))
        case "webp": encoding = .webp(WebPOptions(quality: quality))
        case "avif": encoding = .avif(HEIFOptions(quality: quality, speed: speed))
        default: encoding = .jpeg(JPEGOptions(quality: quality))
        }

        // Warm-up: page in the libraries, let libvips start its thread pool.
        var last = try thumbnailer.encodedThumbnail(data, as: encoding)
        let clock = ContinuousClock()
        let warmupEnd = clock.now + .milliseconds(Int(fixedOperations == nil ? warmup * 1000 : 0))
        while clock.now < warmupEnd {
            last = try thumbnailer.encodedThumbnail(data, as: encoding)
        }

        var operations = 0
        let start = clock.now
        let deadline = start + .milliseconds(Int(seconds * 1000))
        var now = start
        repeat {
            last = try thumbnailer.encodedThumbnail(data, as: encoding)
            operations += 1
            now = clock.now
        } while fixedOperations.map { operations < $0 } ?? (now < deadline)
        let elapsed = (now - start).seconds

        if let output = parsed.options["output"] {
            do {
                try last.data.write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw UsageError("cannot write \(output): \(error.localizedDescription)")
            }
        }

        var line = JSONLine()
        line.add("tool", parsed.options["tool"] ?? (method == .shrinkOnLoad ? "vignette (shrink-on-load)" : "vignette (vips_thumbnail)"))
        line.add("ops_per_sec", Double(operations) / elapsed)
        line.add("ops", operations)
        line.add("seconds", elapsed)
        line.add("threads", threads)
        line.add("format", formatName)
        line.add("quality", quality)
        line.add("route", last.thumbnail.route.description)
        line.add("width", last.thumbnail.image.width)
        line.add("height", last.thumbnail.image.height)
        line.add("bytes", last.data.count)
        line.add("libvips", ImagingRuntime.libraryVersions["libvips"] ?? "unknown")
        return line.text
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
