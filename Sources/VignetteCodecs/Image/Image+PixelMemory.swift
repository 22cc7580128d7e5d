internal import CVignetteImageShims
internal import CVignetteVips

/// An image's pixel memory, reached only here: a pointer to it is handed to a closure while the
/// image that owns it is held alive, and is never stored or returned. Everything else in the
/// module reads an image through libvips' accessors (`vips_image_get_width`, …) and writes pixels
/// only into a new image it is making (`init(width:height:bands:…writingPixels:)`).
extension Image {
    /// Calls `body` with the image's pixels and returns what it returns. The buffer holds
    /// `height` rows of `width` pixels of `bands` samples, each `bytesPerSample` bytes in the
    /// machine's byte order, rows packed; it is valid only inside `body`, while the image that owns
    /// it is alive.
    ///
    /// An image whose pixels are already in memory (a decoded or `materialized()` one) lends
    /// them as they are (`vips_image_get_data`); a lazy one is computed into memory first
    /// (`vips_image_copy_memory`), which is where a truncated file's error is thrown
    /// (`ImagingError`). Errors thrown by `body` are rethrown.
    public func withUnsafePixels<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try ImagingRuntime.ensureInitialised()
        let owner = isInMemory ? self : try materialized()
        guard let result = try owner.withPixelMemory(body) else {
            throw ImagingError(.operationFailed, "vips_image_get_data: the pixels are not in memory")
        }
        return result
    }

    /// Whether the pixels are held in memory (a buffer libvips allocated, or one it was given),
    /// so reading them computes nothing and changes nothing. libvips has no accessor for this:
    /// `vips_image_get_data` on a lazy image computes it in place, which would change an image
    /// other threads may be reading.
    var isInMemory: Bool {
        pointer.pointee.dtype == VIPS_IMAGE_SETBUF || pointer.pointee.dtype == VIPS_IMAGE_SETBUF_FOREIGN
    }

    /// `body` given the pixels (laid out as `withUnsafePixels` says) when they are in memory
    /// (`vips_image_get_data`); nil, with `body` not called, when they are not.
    func withPixelMemory<R, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> R
    ) throws(Failure) -> R? {
        guard isInMemory, let data = vips_image_get_data(pointer) else { return nil }
        // The buffer is the image's: it must outlive `body`, however the call is optimised.
        defer { withExtendedLifetime(self) {} }
        return try body(UnsafeRawBufferPointer(start: data, count: byteCount))
    }

    /// A new in-memory image of `width` × `height` × `bands` samples in `format`, with `header`'s
    /// metadata (ICC profile, EXIF, …) when one is given, whose pixels `write` fills: every byte,
    /// since the buffer is handed over as allocated (`vips_image_new_memory`,
    /// `vips_image_pipeline_array`, `vips_image_init_fields`, `vips_image_write_prepare`). The
    /// header fields are set here, never written afterwards: `interpretation` and the resolutions
    /// (pixels per millimetre) default to `header`'s.
    convenience init(
        width: Int, height: Int, bands: Int, format: VipsBandFormat = VIPS_FORMAT_UCHAR, header: Image? = nil,
        interpretation: VipsInterpretation? = nil, resolution: (x: Double, y: Double)? = nil,
        writingPixels write: (UnsafeMutableRawBufferPointer) throws(ImagingError) -> Void
    ) throws(ImagingError) {
        guard let made = vips_image_new_memory() else {
            throw VipsErrors.operationError("vips_image_new_memory")
        }
        self.init(owning: made)
        var inputs: [UnsafeMutablePointer<VipsImage>?] = [header?.pointer, nil]
        guard vips_image_pipeline_array(made, VIPS_DEMAND_STYLE_THINSTRIP, &inputs) == 0 else {
            throw VipsErrors.operationError("vips_image_pipeline_array")
        }
        let resolution: (x: Double, y: Double) =
            resolution ?? header.map { (vips_image_get_xres($0.pointer), vips_image_get_yres($0.pointer)) } ?? (1, 1)
        vips_image_init_fields(
            made, Int32(width), Int32(height), Int32(bands), format, VIPS_CODING_NONE,
            interpretation ?? header?.interpretation ?? VIPS_INTERPRETATION_MULTIBAND, resolution.x, resolution.y)
        guard vips_image_write_prepare(made) == 0, let data = vips_image_get_data(made) else {
            throw VipsErrors.operationError("vips_image_write_prepare")
        }
        try write(UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(mutating: data), count: byteCount))
    }
}
