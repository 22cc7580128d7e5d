#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageEncoder {
    /// `animation` encoded as `format`: animated WebP through libwebp's `WebPAnimEncoder`,
    /// animated GIF through libvips' `vips_gifsave_buffer`, each keeping the frame delays and the
    /// loop count; formats without animation (JPEG, PNG, HEIC, AVIF) get the first frame, through
    /// `encode(_:as:limits:cancellation:)`. A one-frame animation is written as a still image.
    ///
    /// The encoder's memory for every frame is checked against `limits.maxMemoryBytes` first.
    public static func encode(
        _ animation: Animation, as format: EncodingFormat, limits: DecodingLimits = .untrusted,
        cancellation: ImagingCancellation? = nil
    ) throws(ImagingError) -> Data {
        try ImagingRuntime.ensureInitialised()
        guard animation.frameCount > 1 else {
            return try encode(animation.frames[0], as: format, limits: limits, cancellation: cancellation)
        }
        switch format {
        case .webp(let options):
            try limits.check(.ofEncoding(animation, as: format))
            return try AnimatedWebPEncoder.encode(animation, options: options)
        case .gif(let options):
            try limits.check(.ofEncoding(animation, as: format))
            return try GIFEncoder.encode(animation, options: options)
        default:
            return try encode(animation.frames[0], as: format, limits: limits, cancellation: cancellation)
        }
    }
}

extension DecodingCost {
    /// The memory of encoding every frame of `animation` as `format`: the frames' pixels plus the
    /// encoder's working buffers for each (`EncodingFormat.workingBytesPerPixel`).
    static func ofEncoding(_ animation: Animation, as format: EncodingFormat) -> DecodingCost {
        let size = PixelSize(width: animation.width, height: animation.height)
        return DecodingCost(
            what: "encoding \(animation.frameCount) frames of \(size) as \(format.format)", sourcePixels: 0, decodedPixels: 0,
            memoryBytes: Int.saturating(size.area, animation.frameCount, max(3, animation.frames[0].bands) + format.workingBytesPerPixel))
    }
}
