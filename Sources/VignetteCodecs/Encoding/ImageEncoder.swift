#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// Encodes images: JPEG through libvips' saver or, for plain pixels in memory, libjpeg-turbo
/// (`TurboJPEG.encode(pixels:…)`), GIF through libvips' saver, PNG through libdeflate (`PNGWriter`) or,
/// with metadata or a profile to carry or past its size, libvips' saver, WebP through libwebp, HEIC
/// and AVIF through libheif, JPEG XL through libvips' `vips_jxlsave_buffer` (libjxl), TIFF through
/// libvips' `vips_tiffsave_buffer` (libtiff), BMP and ICO through Vignette's own writers
/// (`BMPWriter`, `ICOWriter`, the PNG inside an ICO through `PNGWriter`).
public enum ImageEncoder {
    /// `image` encoded as `format`. Pixels are first brought to 8-bit sRGB (or grey); JPEG, which
    /// has no alpha, gets alpha flattened onto white.
    ///
    /// An ICC profile the image carries (`Image.iccProfile`: one a thumbnail kept with
    /// `ThumbnailOptions.keepProfile`, or one a decoded image came with) is needed to read its
    /// pixels, so it is written even when metadata are stripped: JPEG (APP2 segments added to
    /// `vips_jpegsave_buffer`'s stripped output), PNG (`vips_pngsave_buffer` of a copy with only
    /// the profile left), WebP (an ICCP chunk, libwebpmux), HEIC and AVIF
    /// (`heif_image_set_raw_color_profile`), JPEG XL and TIFF (libvips' savers, given a copy with
    /// only the profile left). GIF, BMP and ICO hold no profile: their pixels are converted through
    /// the profile to sRGB (`vips_icc_transform`) first. ICO holds at most 256×256 pixels: a larger
    /// image is refused with `.invalidArgument` (as imgproxy does), not scaled.
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
        // An image ICO cannot hold is refused as such, whatever its size would cost.
        if case .ico = format { try ICOWriter.checkSize(of: image) }
        try limits.check(.ofEncoding(image, as: format))
        switch format {
        case .jpeg(let options):
            try check(options.quality, in: 1...100, "JPEG quality")
            let flat = try image.standardizedToSRGB8().flattened()
            let encoded: Data
            // Pixels already in memory, written as libvips would: libjpeg-turbo at once, from the
            // image's own buffer, without a libvips sink (and the threads it hands tiles to).
            if encodesWithTurboJPEG(flat, options), let fast = try flat.withPixelMemory({ (pixels) throws(ImagingError) in
                try TurboJPEG.encode(pixels: pixels, width: flat.width, height: flat.height, bands: flat.bands, quality: options.quality)
            }) {
                encoded = fast
            } else {
                encoded = try save(flat, cancellation) { buffer, length in
                    vgn_jpegsave(flat.pointer, buffer, length, Int32(options.quality), options.progressive ? 1 : 0,
                                 Int32(options.keepMetadata ? VGN_KEEP_ALL : VGN_KEEP_NONE), options.optimizeCoding ? 1 : 0)
                }
            }
            guard !options.keepMetadata, let profile = flat.iccProfile else { return encoded }
            return ProfileEmbedding.jpeg(encoded, profile: profile)
        case .png(let options):
            try check(options.compression, in: 0...9, "PNG compression")
            let (standard, keep) = try forSaver(image.standardizedToSRGB8(), keepMetadata: options.keepMetadata)
            // Nothing but pixels, of a size held in memory: libdeflate's compressor, at once.
            if keep == Int32(VGN_KEEP_NONE), PNGWriter.applies(width: standard.width, height: standard.height, bands: standard.bands) {
                return try PNGWriter.encode(standard.materialized(cancellation: cancellation).pixels(), compression: options.compression)
            }
            return try save(standard, cancellation) { buffer, length in
                vgn_pngsave(standard.pointer, buffer, length, Int32(options.compression), 0, keep)
            }
        case .webp(let options):
            let rgb = try image.materialized(cancellation: cancellation).standardizedToRGB8()
            let encoded = try WebPEncoder.encode(rgb, options: options)
            guard let profile = rgb.iccProfile else { return encoded }
            return try ProfileEmbedding.webp(encoded, profile: profile)
        case .heic(let options):
            return try HEIFEncoder.encode(image.materialized(cancellation: cancellation), codec: .hevc, options: options)
        case .avif(let options):
            return try HEIFEncoder.encode(image.materialized(cancellation: cancellation), codec: .av1, options: options)
        case .gif(let options):
            return try GIFEncoder.encode(image.materialized(cancellation: cancellation), options: options)
        case .jxl(let options):
            return try JXLEncoder.encode(image, options: options, cancellation: cancellation)
        case .tiff(let options):
            return try TIFFEncoder.encode(image, options: options, cancellation: cancellation)
        case .bmp:
            return try BMPWriter.encode(image.materialized(cancellation: cancellation).convertedToSRGB().pixels())
        case .ico:
            return try ICOWriter.encode(image, cancellation: cancellation)
        }
    }

    /// Whether libjpeg-turbo writes `image` as `vips_jpegsave` would with `options`: a baseline
    /// JPEG with standard tables and no metadata, of an 8-bit RGB or grey image held in memory (a
    /// profile is added after, as for libvips' output).
    static func encodesWithTurboJPEG(_ image: Image, _ options: JPEGOptions) -> Bool {
        image.isInMemory && !options.progressive && !options.optimizeCoding && !options.keepMetadata
            && vips_image_get_format(image.pointer) == VIPS_FORMAT_UCHAR && (image.bands == 3 || image.bands == 1)
    }

    /// What a libvips saver that writes every metadata field it finds (PNG, TIFF, JPEG XL) is given,
    /// and which metadata it writes (`VGN_KEEP_*`): `image` as it is, all of them, when metadata
    /// are kept; `image` as it is, none, when it has no profile; stripped but with a profile, which
    /// is needed to read its pixels, a copy with nothing else left, the profile alone.
    static func forSaver(_ image: Image, keepMetadata: Bool) throws(ImagingError) -> (image: Image, keep: Int32) {
        if keepMetadata { return (image, Int32(VGN_KEEP_ALL)) }
        guard image.iccProfile != nil else { return (image, Int32(VGN_KEEP_NONE)) }
        return (try image.keepingOnlyProfile(), Int32(VGN_KEEP_PROFILE))
    }

    static func check(_ value: Int, in range: ClosedRange<Int>, _ name: String) throws(ImagingError) {
        guard range.contains(value) else {
            throw ImagingError(.invalidArgument, "\(name) must be \(range.lowerBound)–\(range.upperBound), got \(value)")
        }
    }

    /// Runs a libvips saver and copies its g_malloc'd buffer into `Data`, freeing it at once.
    /// The saver pulls `image`'s pixels; `cancellation`, when given, watches that evaluation.
    static func save(
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
