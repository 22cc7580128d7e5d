internal import CVignetteImageShims
internal import CVignetteResize
internal import CVignetteVips

/// Vignette's own separable Lanczos-3 reducer (the `CVignetteResize` C target), used by `Thumbnailer` on
/// the decoded 8-bit pixels in place of `vips_resize`.
///
/// Why: on sharp's JPEG task the scalar `reduceh`/`reducev` loops of Debian's libvips 8.14 took a
/// large part of the instructions (the profile is in docs/performance.md). This reducer computes the same
/// kind of result (Lanczos 3 stretched by the scale factor, 8-bit samples between the vertical and
/// horizontal passes) with 16-bit fixed-point weights, on x86-64 with AVX2 when the CPU has it
/// (chosen at run time) and with a portable scalar path otherwise; both give the same integers.
///
/// It works on the whole decoded image in memory, so it takes only images up to
/// `maximumInputBytes`; bigger ones, and everything that is not a reduction of 1-4 uchar bands,
/// stay with `vips_resize`, which streams.
enum LanczosReducer {
    /// Which code path the C reducer takes.
    enum Implementation: Sendable, CaseIterable {
        /// AVX2 when the CPU has it, scalar otherwise.
        case automatic
        /// The portable scalar path.
        case scalar
        /// The AVX2 path; fails on a CPU without AVX2.
        case avx2

        var cValue: Int32 {
            switch self {
            case .automatic: Int32(VGN_RESIZE_AUTOMATIC)
            case .scalar: Int32(VGN_RESIZE_SCALAR)
            case .avx2: Int32(VGN_RESIZE_AVX2)
            }
        }
    }

    /// Whether this CPU runs the AVX2 path.
    static var hasAVX2: Bool { vgn_resize_has_avx2() == 1 }

    /// The largest decoded image it holds in memory at once (the shrunk-on-load decode of a 24-MP
    /// JPEG for a 720-px box is 18 MB; a 3-MP RGBA PNG 12 MB).
    static let maximumInputBytes = 48 << 20

    /// The steepest reduction it takes on either axis: 2 × ⌈3 × 16⌉ + 1 = 97 taps a sample. Steeper
    /// ones go to `vips_resize`, which shrinks by whole factors first.
    static let maximumScale = 16.0

    /// Whether `image` can be brought to `width` × `height` by this reducer: 8-bit sRGB or grey with
    /// 1-4 bands, or 8-bit CMYK without alpha (its four bands resampled alike), no larger than the
    /// source on either axis, not too steep, small enough to hold.
    static func applies(to image: Image, width: Int, height: Int) -> Bool {
        let space = image.interpretation
        return vips_image_get_format(image.pointer) == VIPS_FORMAT_UCHAR
            && vips_image_get_coding(image.pointer) == VIPS_CODING_NONE
            && (space == VIPS_INTERPRETATION_sRGB || space == VIPS_INTERPRETATION_B_W
                || (space == VIPS_INTERPRETATION_CMYK && image.bands == 4 && !image.hasAlpha))
            && (1...4).contains(image.bands)
            && width > 0 && height > 0 && width <= image.width && height <= image.height
            && Double(image.width) / Double(width) <= maximumScale
            && Double(image.height) / Double(height) <= maximumScale
            && image.byteCount <= maximumInputBytes
    }

    /// `image` (which `applies(to:width:height:)` accepted) decoded into memory
    /// (`Image.materialized(cancellation:)`, under libvips' kill flag) and reduced to `width` ×
    /// `height`, its output rows split between `threads` threads (default
    /// `ImagingRuntime.threadsPerImage`, at most 4). The result is an in-memory image with `image`'s
    /// header fields (EXIF orientation, ICC profile, resolution) and the new size. Decoding errors
    /// surface here.
    ///
    /// The decode is finished before the reduction starts rather than streamed into it: fetching
    /// rows with `vips_region_prepare` while they are reduced does not shorten the critical path,
    /// and libvips zeroes each fresh region buffer, which costs more work in all.
    static func resize(
        _ image: Image, toWidth width: Int, height: Int, cancellation: ImagingCancellation? = nil,
        implementation: Implementation = .automatic, threads: Int? = nil
    ) throws(ImagingError) -> Image {
        if width == image.width, height == image.height { return image }
        let threads = Int32(min(4, max(1, threads ?? ImagingRuntime.threadsPerImage)))
        let bands = image.bands
        let source = try image.materialized(cancellation: cancellation)
        return try Image(width: width, height: height, bands: bands, header: source) { output throws(ImagingError) in
            let status = source.withPixelMemory { pixels in
                vgn_lanczos3_resize(
                    pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(source.width), Int32(source.height),
                    source.width * bands, output.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height),
                    width * bands, Int32(bands), source.hasAlpha ? 1 : 0, implementation.cValue, threads)
            }
            guard let status else { throw VipsErrors.decodingError() }
            try check(status, "\(source.width)x\(source.height)x\(bands) to \(width)x\(height)")
        }
    }

    /// Reduces interleaved 8-bit pixels to `width` × `height` (the last band is alpha when
    /// `hasAlpha`), with the code path `implementation`, on `threads` threads (1-4).
    static func resize(
        _ pixels: PixelBuffer, toWidth width: Int, height: Int, hasAlpha: Bool,
        implementation: Implementation = .automatic, threads: Int = 1
    ) throws(ImagingError) -> PixelBuffer {
        guard pixels.bytes.count == pixels.width * pixels.height * pixels.bands, width > 0, height > 0 else {
            throw ImagingError(.invalidArgument, "pixel buffer size does not match \(pixels.width)x\(pixels.height)x\(pixels.bands)")
        }
        var output = [UInt8](repeating: 0, count: width * height * pixels.bands)
        let status = pixels.bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                vgn_lanczos3_resize(
                    input.baseAddress, Int32(pixels.width), Int32(pixels.height), pixels.width * pixels.bands,
                    out.baseAddress, Int32(width), Int32(height), width * pixels.bands,
                    Int32(pixels.bands), hasAlpha ? 1 : 0, implementation.cValue, Int32(threads))
            }
        }
        try check(status, "\(pixels.width)x\(pixels.height)x\(pixels.bands) to \(width)x\(height)")
        return PixelBuffer(width: width, height: height, bands: pixels.bands, bytes: output)
    }

    private static func check(_ status: Int32, _ what: String) throws(ImagingError) {
        switch status {
        case 0: return
        case -2: throw ImagingError(.limitExceeded, "Lanczos 3 reduce \(what): out of memory")
        default: throw ImagingError(.invalidArgument, "Lanczos 3 reduce \(what): arguments refused")
        }
    }
}
