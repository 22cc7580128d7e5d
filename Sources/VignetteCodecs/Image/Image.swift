internal import CVignetteImageShims
internal import CVignetteVips

/// A decoded image: a libvips `VipsImage` owned by this object and released in `deinit`.
///
/// Images that VignetteCodecs hands out from decoding and thumbnailing are *materialised*: their
/// pixels are in memory (`vips_image_copy_memory`), so reading them never decodes again and is
/// safe from any thread. Transforms (`resized`, `cropped`, `blurred`, …) return lazy images — a
/// libvips recipe over a materialised input — which are equally safe to share, since libvips
/// evaluates regions of a graph over in-memory images from any number of threads; call
/// `materialized()` to compute a transform's pixels once and keep them.
/// That is why `Image` is `Sendable`: it is immutable, and its only state is that read-only graph.
/// Its pixel memory is lent to a closure while it lives (`withUnsafePixels`), never handed out.
public final class Image: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<VipsImage>

    /// Takes ownership of one reference to `pointer`.
    init(owning pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        vgn_unref(pointer)
    }

    /// Width in pixels.
    public var width: Int { Int(vips_image_get_width(pointer)) }
    /// Height in pixels.
    public var height: Int { Int(vips_image_get_height(pointer)) }
    /// Number of bands (channels), alpha included.
    public var bands: Int { Int(vips_image_get_bands(pointer)) }
    /// Whether the last band is alpha (`vips_image_hasalpha`).
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    /// The EXIF orientation (1–8) still to be applied; 1 when the image is upright.
    public var orientation: Int {
        let value = Int(vips_image_get_orientation(pointer))
        return (1...8).contains(value) ? value : 1
    }
    /// Bytes per band sample: 1 for 8-bit, 2 for 16-bit, 4 for float.
    public var bytesPerSample: Int { Int(vips_format_sizeof(vips_image_get_format(pointer))) }
    /// Bytes the pixels take in memory: width × height × bands × bytes per sample.
    public var byteCount: Int { width * height * bands * bytesPerSample }

    /// Computes the pixels once and returns an image that holds them in memory
    /// (`vips_image_copy_memory`), its ICC profile, if any, in memory of its own. Errors in lazy
    /// decoding (a truncated file) surface here.
    public func materialized() throws(ImagingError) -> Image {
        guard let copy = vgn_image_copy_memory(pointer) else {
            throw VipsErrors.decodingError()
        }
        return Image(owning: copy)
    }

    /// `materialized()`, stopped at the next tile once `cancellation` is cancelled (libvips' kill
    /// flag), with `ImagingError.Kind.cancelled`.
    public func materialized(cancellation: ImagingCancellation?) throws(ImagingError) -> Image {
        guard let cancellation else { return try materialized() }
        return try cancellation.watching(pointer) { () throws(ImagingError) in try materialized() }
    }

    /// Runs a libvips operation that writes a new image to `out`.
    func apply(
        _ what: String,
        _ operation: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32
    ) throws(ImagingError) -> Image {
        var out: UnsafeMutablePointer<VipsImage>?
        guard operation(pointer, &out) == 0, let result = out else {
            throw VipsErrors.operationError(what)
        }
        return Image(owning: result)
    }
}
