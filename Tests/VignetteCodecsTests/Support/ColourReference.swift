import ChildProcess
import Foundation
import Testing
@testable import VignetteCodecs

/// Reference colours made outside Vignette: source pixels read by libvips' `vips` command
/// (`rawsave`, no colour handling), converted to sRGB by littleCMS' `transicc` (Debian's
/// liblcms2-utils, which `make test` installs) with the relative colorimetric intent, and compared
/// in CIE L*a*b* (D65) by CIE76 ΔE.
enum ColourReference {
    /// Pixels as bands of doubles: 0–255 for 8-bit samples, 0–65535 for 16-bit ones.
    struct RawImage {
        let width: Int
        let height: Int
        let bands: Int
        /// libvips' name for the pixels' space: "srgb", "rgb16", "b-w", "grey16", "cmyk".
        let interpretation: String
        let samples: [Double]

        func pixel(_ index: Int) -> ArraySlice<Double> { samples[(index * bands)..<((index + 1) * bands)] }
    }

    static func tool(_ name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a tool, feeding `input` to its standard input (from a file, so that nothing waits on a
    /// pipe); its standard output.
    static func run(_ name: String, _ arguments: [String], input: Data = Data()) async throws -> Data {
        let executable = try #require(tool(name), "\(name) is not installed (make test installs it)")
        let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-input-\(UUID().uuidString)")
        try input.write(to: inputFile)
        defer { try? FileManager.default.removeItem(at: inputFile) }
        let handle = try FileHandle(forReadingFrom: inputFile)
        let process = try ChildProcess(executable, arguments, input: .descriptor(handle.fileDescriptor))
        try handle.close()
        let result = await process.result(killAfter: .seconds(120))
        try #require(
            result.termination == .exited(0),
            "\(name) \(arguments.joined(separator: " ")) failed (\(result.termination)): \(result.standardError)")
        return Data(result.output)
    }

    /// The stored pixels of `file` as libvips decodes them, with no colour handling (`vips rawsave`).
    static func raw(_ file: URL) async throws -> RawImage {
        func field(_ name: String) async throws -> String {
            String(decoding: try await run("vipsheader", ["-f", name, file.path]), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let width = try #require(Int(try await field("width"))), height = try #require(Int(try await field("height")))
        let bands = try #require(Int(try await field("bands")))
        let format = try await field("format")
        // "cmyk", or "((VipsInterpretation) VIPS_INTERPRETATION_CMYK)": libvips' nickname either way.
        var interpretation = try await field("interpretation").lowercased()
        if let range = interpretation.range(of: "vips_interpretation_") {
            interpretation = String(interpretation[range.upperBound...].prefix { $0 != ")" }).replacingOccurrences(of: "_", with: "-")
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-raw-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try await run("vips", ["rawsave", file.path, out.path])
        let data = try Data(contentsOf: out)
        let samples: [Double]
        // vipsheader names the format as "uchar" or as "((VipsBandFormat) VIPS_FORMAT_UCHAR)".
        switch format.lowercased() {
        case let name where name.hasSuffix("uchar") || name.hasSuffix("uchar)"): samples = data.map(Double.init)
        case let name where name.hasSuffix("ushort") || name.hasSuffix("ushort)"):
            samples = stride(from: 0, to: data.count - 1, by: 2).map { Double(UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8) }
        default: throw ColourTestError("unexpected band format \(format) of \(file.lastPathComponent)")
        }
        try #require(samples.count == width * height * bands, "rawsave of \(file.lastPathComponent) has \(samples.count) samples")
        return RawImage(width: width, height: height, bands: bands, interpretation: interpretation, samples: samples)
    }

    /// `colours` (device values in `profile`'s space, as transicc's float mode takes them: 0–255 for
    /// RGB and grey, 0–100 for CMYK) converted to sRGB 0–255 by `transicc -t1 -s`.
    static func transicc(_ colours: [[Double]], profile: URL?) async throws -> [[Double]] {
        let text = colours.map { $0.map { String(format: "%.4f", $0) }.joined(separator: " ") }.joined(separator: "\n") + "\n"
        let output = try await run(
            "transicc", ["-i", profile?.path ?? "*sRGB", "-o", "*sRGB", "-t", "1", "-s", "-n"], input: Data(text.utf8))
        let rows = String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            line.split(separator: " ").compactMap { Double($0) }
        }.filter { $0.count == 3 }
        try #require(rows.count == colours.count, "transicc gave \(rows.count) colours for \(colours.count)")
        return rows
    }

    /// `profile` in a temporary file (removed by the caller).
    static func profileFile(_ profile: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-\(UUID().uuidString).icc")
        try profile.write(to: url)
        return url
    }

    /// CIE L*a*b* (D65 white) of an 8-bit-scaled sRGB colour (0–255 doubles).
    static func lab(_ rgb: [Double]) -> (Double, Double, Double) {
        func linear(_ v: Double) -> Double {
            let c = min(max(v / 255, 0), 1)
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(rgb[0]), linear(rgb[1]), linear(rgb[2]))
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// CIE76 ΔE between two sRGB colours (0–255).
    static func deltaE(_ a: [Double], _ b: [Double]) -> Double {
        let (l1, a1, b1) = lab(a), (l2, a2, b2) = lab(b)
        return ((l1 - l2) * (l1 - l2) + (a1 - a2) * (a1 - a2) + (b1 - b2) * (b1 - b2)).squareRoot()
    }

    /// Mean and largest CIE76 ΔE between `image` (8-bit sRGB or grey, alpha allowed) and the
    /// reference sRGB colours of the same pixels `indices` (pixels with alpha 0 left out).
    static func deltaE(of image: Image, reference: [[Double]], at indices: [Int]) throws -> (mean: Double, max: Double) {
        let pixels = try image.pixels()
        let colourBands = pixels.bands >= 3 ? 3 : 1
        let hasAlpha = pixels.bands == 2 || pixels.bands == 4
        var total = 0.0, largest = 0.0, counted = 0
        for (position, index) in indices.enumerated() {
            let base = index * pixels.bands
            if hasAlpha, pixels.bytes[base + pixels.bands - 1] == 0 { continue }
            let colour = colourBands == 3
                ? [Double(pixels.bytes[base]), Double(pixels.bytes[base + 1]), Double(pixels.bytes[base + 2])]
                : Array(repeating: Double(pixels.bytes[base]), count: 3)
            let distance = deltaE(colour, reference[position])
            total += distance
            largest = max(largest, distance)
            counted += 1
        }
        try #require(counted > 0, "no opaque pixel to compare")
        return (total / Double(counted), largest)
    }

    /// At most about `limit` pixel indices spread over an image of `count` pixels.
    static func sample(_ count: Int, limit: Int = 6000) -> [Int] {
        Array(stride(from: 0, to: count, by: max(1, count / limit)))
    }
}

struct ColourTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
