#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CImageShims
internal import CVips

/// Encodes images: JPEG, PNG and GIF through libvips' savers, WebP through libwebp, HEIC and AVIF
/// through libheif.
public enum ImageEncoder {
    /// `image` encoded as `format`. Pixels are first brought to 8-bit sRGB (or grey); JPEG, which
    /// has no alpha, gets alpha flattened onto white.
    ///
    /// The memory the encode will need (the image's pixels plus the encoder's own buffers: libwebp
    /// and libheif copy the picture into planes of their own) is checked against
    /// `limits.maxMemoryBytes` first, so a full-size AVIF of a 100-megapixel image is refused with
    /// `.limitExceeded` instead of taking 2 GB.
    ///
    /// With `cancellation`, a lazy image's decode stops at its next tile once it is cancelled
    /// (`ImagingError.Kind.cancelled`): libvips' kill flag on the image the saver pulls (JPEG,
    /// PNG), or on the pixels computed for libwebp and libheif before they encode.
    public static func encode(
        _ image: Image, as format: EncodingFormat, limits: DecodingLimits = .untrusted, cancellation: ImagingCancellation? = nil
    ) throws(ImagingError) -> Data {
        try ImagingRuntime.ensureInitialised()
        try limits.check(.ofEncoding(image, as: format))
        switch format {
        case .jpeg(let options):
            try check(options.quality, in: 1...100, "JPEG quality")
            let flat = try image.standardizedToSRGB8().flattened()
            return try save(flat, cancellation) { buffer, length in
                vgn_jpegsave(flat.pointer, buffer, length, Int32(options.quality), options.progressive ? 1 : 0,
                             options.keepMetadata ? 0 : 1, options.optimizeCoding ? 1 : 0)
            }
        case .png(let options):
            try check(options.compression, in: 0...9, "PNG compression")
            let standard = try image.standardizedToSRGB8()
            return try save(standard, cancellation) { buffer, length in
                vgn_pngsave(standard.pointer, buffer, length, Int32(options.compression), 0, options.keepMetadata ? 0 : 1)
            }
        case .webp(let options):
            return try WebPEncoder.encode(image.materialized(cancellation: cancellation), options: options)
        case .heic(let options):
            return try HEIFEncoder.encode(image.materialized(cancellation: cancellation), codec: .hevc, options: options)
        case .avif(let options):
            return try HEIFEncoder.encode(image.materialized(cancellation: cancellation), codec: .av1, options: options)
        case .gif(let options):
            return try GIFEncoder.encode(image.materialized(cancellation: cancellation), options: options)
        }
    }

    static func check(_ value: Int, in range: ClosedRange<Int>, _ name: String) throws(ImagingError) {
        guard range.contains(value) else {
            throw ImagingError(.invalidArgument, "\(name) must be \(range.lowerBound)–\(range.upperBound), got \(value)")
        }
    }

    /// Runs a libvips saver and copies its g_malloc'd buffer into `Data`, freeing it at once.
    /// The saver pulls `image`'s pixels; `cancellation`, when given, watches that evaluation.
    private static func save(
        _ image: Image, _ cancellation: ImagingCancellation?,
        _ saver: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws(ImagingError) -> Data {
        guard let cancellation else { return try save(saver) }
        return try cancellation.watching(image.pointer) { () throws(ImagingError) in try save(saver) }
    }

    private static func save(
        _ saver: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws(ImagingError) -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard saver(&buffer, &length) == 0, let buffer else {
            // The saver pulls the pixels, so most failures here are the loader's (a truncated or
            // corrupt file): libvips' message names it ("VipsJpeg: …", "heifload_source: …").
            throw VipsErrors.decodingError()
        }
        defer { vgn_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}
