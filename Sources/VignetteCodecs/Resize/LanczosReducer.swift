internal import CImageShims
internal import CResize
internal import CVips

/// Vignette's own separable Lanczos-3 reducer (the `CResize` C target), used by `Thumbnailer` on
/// the decoded 8-bit pixels in place of `vips_resize`.
///
/// Why: on sharp's JPEG task the scalar `reduceh`/`reducev` loops of Debian's libvips 8.14 took
/// about 40 % of the instructions (Benchmarks/README.md, "Profile"). This reducer computes the same
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

    /// Whether `image` can be brought to `width` × `height` by this reducer: 8-bit sRGB or grey,
    /// 1-4 bands, no larger than the source on either axis, not too steep, small enough to hold.
    static func applies(to image: Image, width: Int, height: Int) -> Bool {
        let space = image.interpretation
        return vips_image_get_format(image.pointer) == VIPS_FORMAT_UCHAR
            && vips_image_get_coding(image.pointer) == VIPS_CODING_NONE
            && (space == VIPS_INTERPRETATION_sRGB || space == VIPS_INTERPRETATION_B_W)
            && (1...4).contains(image.bands)
            && width > 0 && height > 0 && width <= image.width && height <= image.height
            && Double(image.width) / Double(width) <= maximumScale
            && Double(image.height) / Double(height) <= maximumScale
            && image.byteCount <= maximumInputBytes
    }

    /// `image` (which `applies(to:width:height:)` accepted) decoded and reduced to `width` × `height`.
    /// `threads` overrides `ImagingRuntime.threadsPerImage` (for tests). The result is an in-memory image with `image`'s header fields (EXIF orientation, ICC profile,
    /// resolution) and the new size. Decoding errors surface here.
    ///
    /// With `ImagingRuntime.threadsPerImage` ≥ 2 and no `cancellation`, the rows are read from
    /// libvips in strips, top to bottom, on this thread (`vips_region_prepare`) and reduced on a
    /// second thread as they arrive: a JPEG decode runs on one thread, so the resize then costs
    /// little wall time. Otherwise the image is decoded into memory first
    /// (`Image.materialized(cancellation:)`, under libvips' kill flag) and then reduced: with one
    /// thread per image (many images at once) that costs fewer instructions than the strips,
    /// whose region buffers libvips 8.14 allocates and zeroes again and again (callgrind:
    /// 200 M against 208 M an operation on sharp's task).
    static func resize(
        _ image: Image, toWidth width: Int, height: Int, cancellation: ImagingCancellation? = nil,
        implementation: Implementation = .automatic, threads: Int? = nil
    ) throws(ImagingError) -> Image {
        if width == image.width, height == image.height { return image }
        let threads = Int32(min(4, max(1, threads ?? ImagingRuntime.threadsPerImage)))
        let bands = image.bands
        let result = try emptyImage(like: image, width: width, height: height)
        guard let output = result.pointer.pointee.data else {
            throw VipsErrors.operationError("vips_image_write_prepare")
        }
        let what = "\(image.width)x\(image.height)x\(bands) to \(width)x\(height)"
        if cancellation != nil || threads == 1 {
            let source = try image.materialized(cancellation: cancellation)
            guard let pixels = vips_image_get_data(source.pointer) else { throw VipsErrors.decodingError() }
            let status = vgn_lanczos3_resize(
                pixels.assumingMemoryBound(to: UInt8.self), Int32(source.width), Int32(source.height),
                source.width * bands, output, Int32(width), Int32(height), width * bands,
                Int32(bands), source.hasAlpha ? 1 : 0, implementation.cValue, threads)
            try check(status, what)
            return result
        }
        guard let region = vips_region_new(image.pointer) else {
            throw VipsErrors.operationError("vips_region_new")
        }
        defer { vgn_unref(region) }
        var reader = RowReader(region: region, width: Int32(image.width), rowBytes: image.width * bands)
        let status = withUnsafeMutablePointer(to: &reader) { context in
            vgn_lanczos3_resize_streaming(
                { context, first, count, rows in RowReader.fetch(context, first, count, rows) }, context, Int32(image.width), Int32(image.height), output, Int32(width),
                Int32(height), width * bands, Int32(bands), image.hasAlpha ? 1 : 0, implementation.cValue, threads)
        }
        if status == -3 { throw VipsErrors.decodingError() }
        try check(status, what)
        return result
    }

    /// An in-memory image of `width` × `height` with `image`'s bands, interpretation and header
    /// fields (metadata included), its pixel memory allocated and not yet written.
    private static func emptyImage(like image: Image, width: Int, height: Int) throws(ImagingError) -> Image {
        guard let made = vips_image_new_memory() else {
            throw VipsErrors.operationError("vips_image_new_memory")
        }
        let result = Image(owning: made)
        var inputs: [UnsafeMutablePointer<VipsImage>?] = [image.pointer, nil]
        guard vips_image_pipeline_array(made, VIPS_DEMAND_STYLE_THINSTRIP, &inputs) == 0 else {
            throw VipsErrors.operationError("vips_image_pipeline_array")
        }
        vips_image_init_fields(
            made, Int32(width), Int32(height), Int32(image.bands), VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
            image.interpretation, vips_image_get_xres(image.pointer), vips_image_get_yres(image.pointer))
        guard vips_image_write_prepare(made) == 0 else {
            throw VipsErrors.operationError("vips_image_write_prepare")
        }
        return result
    }

    /// The context of the C reducer's row source: a libvips region over the decoded image.
    private struct RowReader {
        let region: UnsafeMutablePointer<VipsRegion>
        let width: Int32
        let rowBytes: Int

        /// `vgn_row_source`: computes rows [first, first + count) with `vips_region_prepare` (the
        /// loader decodes them, in order) and copies them out packed.
        static func fetch(_ context: UnsafeMutableRawPointer?, _ first: Int32, _ count: Int32, _ rows: UnsafeMutablePointer<UInt8>?) -> Int32 {
            guard let context, let rows else { return -1 }
            let reader = context.assumingMemoryBound(to: RowReader.self).pointee
            var rect = VipsRect(left: 0, top: first, width: reader.width, height: count)
            guard vips_region_prepare(reader.region, &rect) == 0 else { return -1 }
            let region = reader.region.pointee
            guard let data = region.data, region.valid.left == 0, region.valid.top <= first,
                region.valid.top + region.valid.height >= first + count
            else { return -1 }
            let stride = Int(region.bpl)
            var source = data + Int(first - region.valid.top) * stride
            var target = rows
            for _ in 0..<Int(count) {
                target.update(from: source, count: reader.rowBytes)
                source += stride
                target += reader.rowBytes
            }
            return 0
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
