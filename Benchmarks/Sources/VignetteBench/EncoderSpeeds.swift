import Foundation
import Vignette

/// HEIC (x265) and AVIF (aom) encoding at several `HEIFOptions.speed` settings, plus WebP: time,
/// size and PSNR against the source, to choose and back the default speed.
enum EncoderSpeeds {
    static let usage = "encoder-speeds --input FILE [--quality Q] [--runs N]"

    static func run(_ arguments: ArraySlice<String>) throws -> String {
        let parsed = try Arguments(arguments, known: ["input", "quality", "runs"])
        let input = try parsed.required("input")
        let quality = Int(try parsed.double("quality", default: 50))
        let runs = max(1, Int(try parsed.double("runs", default: 3)))
        _ = try Runtime.applyThreadSetting()
        let source = try ImageDecoder().decode(fileAt: input).autoOriented().materialized()
        let reference = try source.pixels()

        let cases: [(String, EncodingFormat)] =
            [9, 8, 6, 3].map { ("heic speed \($0)\($0 == 3 ? " (x265 slow, libheif's default)" : "")",
                                EncodingFormat.heic(HEIFOptions(quality: quality, speed: $0))) }
            + [9, 8, 6, 4].map { ("avif speed \($0)", EncodingFormat.avif(HEIFOptions(quality: quality, speed: $0))) }
            + [("webp effort 4", .webp(WebPOptions(quality: quality)))]
        var lines: [String] = []
        for (name, format) in cases {
            var times: [Double] = []
            var encoded = Data()
            for _ in 0..<runs {
                let start = ContinuousClock.now
                encoded = try ImageEncoder.encode(source, as: format)
                times.append((ContinuousClock.now - start).seconds)
            }
            let decoded = try ImageDecoder().decode(encoded).pixels()
            var line = JSONLine()
            line.add("case", name)
            line.add("quality", quality)
            line.add("seconds", times.sorted()[times.count / 2])
            line.add("bytes", encoded.count)
            line.add("psnr_db", psnr(reference, decoded))
            line.add("megapixels", Double(source.width * source.height) / 1e6)
            lines.append(line.text)
        }
        return lines.joined(separator: "\n")
    }

    /// Peak signal-to-noise ratio over the colour samples, in dB.
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        guard a.width == b.width, a.height == b.height, a.bands == b.bands else { return 0 }
        var squared = 0.0
        for index in a.bytes.indices {
            let d = Double(a.bytes[index]) - Double(b.bytes[index])
            squared += d * d
        }
        let mse = squared / Double(a.bytes.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
