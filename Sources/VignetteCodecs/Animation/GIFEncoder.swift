#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// GIF settings for libvips' `vips_gifsave_buffer` (cgif).
public struct GIFOptions: Sendable, Hashable, Codable {
    /// How hard libimagequant works on the palette, 1 (fastest) to 10 (best); libvips' `effort`.
    public var effort: Int
    /// Bits per palette index, 1–8 (2 to 256 colours).
    public var bitDepth: Int
    /// Floyd–Steinberg dithering strength, 0 (none) to 1.
    public var dither: Double

    /// GIF settings: effort 7, 8 bits (256 colours), full dithering by default (libvips' defaults).
    public init(effort: Int = 7, bitDepth: Int = 8, dither: Double = 1) {
        self.effort = effort
        self.bitDepth = bitDepth
        self.dither = dither
    }
}

/// GIF encoding through libvips' `vips_gifsave_buffer` (cgif and libimagequant): a still image,
/// or an animation as libvips' strip of frames with `page-height`, `delay` and `loop` set.
/// GIF stores delays in hundredths of a second, so delays are rounded to 10 ms; alpha becomes
/// on/off transparency.
enum GIFEncoder {
    static func encode(_ image: Image, options: GIFOptions) throws(ImagingError) -> Data {
        try save(rgb(image), options: options)
    }

    static func encode(_ animation: Animation, options: GIFOptions) throws(ImagingError) -> Data {
        var frames: [Image] = []
        for frame in animation.frames { frames.append(try rgb(frame)) }
        let strip = try Animation(frames: frames, delays: animation.delays, loopCount: animation.loopCount).strip()
        return try save(strip, options: options)
    }

    /// 8-bit sRGB (grey expanded), alpha kept: what the GIF saver quantises. GIF holds no ICC
    /// profile, so pixels that carry one are converted through it (`Image.convertedToSRGB`).
    private static func rgb(_ image: Image) throws(ImagingError) -> Image {
        try image.convertedToSRGB().standardizedToRGB8()
    }

    private static func save(_ image: Image, options: GIFOptions) throws(ImagingError) -> Data {
        try ImageEncoder.check(options.effort, in: 1...10, "GIF effort")
        try ImageEncoder.check(options.bitDepth, in: 1...8, "GIF bit depth")
        guard options.dither.isFinite, (0...1).contains(options.dither) else {
            throw ImagingError(.invalidArgument, "GIF dither must be 0–1, got \(options.dither)")
        }
        guard image.width <= 65535, image.height <= 65535 else {
            throw ImagingError(.invalidArgument, "GIF images are at most 65535 pixels a side, got \(image.width)x\(image.height)")
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard vgn_gifsave(image.pointer, &buffer, &length, Int32(options.effort), Int32(options.bitDepth), options.dither, 1) == 0,
            let buffer
        else {
            throw VipsErrors.operationError("vips_gifsave_buffer")
        }
        defer { vgn_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}
