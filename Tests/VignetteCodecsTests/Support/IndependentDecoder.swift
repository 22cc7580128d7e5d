import Foundation
import Testing
import VignetteCodecs

/// Reads an output with a decoder other than the writer's own: libvips' `vips` command (Debian's
/// libvips-tools, which `make test` installs) in a process of its own, either through
/// ImageMagick's coders (`magickload`: BMP, ICO and TIFF, which Vignette's process blocks) or
/// libvips' own loaders (`copy`: JPEG XL through jxlload, TIFF through libtiff), written out as a
/// PNG that Vignette then reads.
enum IndependentDecoder {
    enum Reader: String {
        case imageMagick = "magickload"
        case libvips = "copy"
    }

    static var available: Bool { ColourReference.tool("vips") != nil }

    /// `data` (a file ending in `.ext`) as `reader` decodes it.
    static func image(_ data: Data, ext: String, with reader: Reader) async throws -> Image {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-independent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.\(ext)"), output = folder.appendingPathComponent("out.png")
        try data.write(to: input)
        _ = try await ColourReference.run("vips", [reader.rawValue, input.path, output.path])
        return try ImageDecoder(limits: .unlimited).decode(Data(contentsOf: output))
    }
}

extension Trait where Self == ConditionTrait {
    static var vipsCommand: Self {
        .enabled(if: IndependentDecoder.available, "the vips command-line tool (libvips-tools) is not installed")
    }
}

extension Image {
    /// The mean absolute difference of two images' 8-bit pixels, over every band (nil for different shapes).
    func meanDifference(to other: Image) throws -> Double? {
        let a = try pixels(), b = try other.pixels()
        guard a.width == b.width, a.height == b.height, a.bands == b.bands, !a.bytes.isEmpty else { return nil }
        var total = 0
        for index in a.bytes.indices { total += abs(Int(a.bytes[index]) - Int(b.bytes[index])) }
        return Double(total) / Double(a.bytes.count)
    }

    /// The 8-bit pixels with grey (and grey + alpha) repeated into R, G and B: what a reader that
    /// holds grey as RGB, or reads an all-grey file back as grey, is compared by.
    func colourPixels() throws -> PixelBuffer {
        let pixels = try pixels()
        guard pixels.bands < 3 else { return pixels }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pixels.width * pixels.height * (pixels.bands + 2))
        for index in 0..<(pixels.width * pixels.height) {
            let value = pixels.bytes[index * pixels.bands]
            bytes += [value, value, value]
            if pixels.bands == 2 { bytes.append(pixels.bytes[index * 2 + 1]) }
        }
        return PixelBuffer(width: pixels.width, height: pixels.height, bands: pixels.bands + 2, bytes: bytes)
    }
}
