internal import CVignetteImageShims
internal import CVignetteVips

/// Interleaved 8-bit pixels copied out of an image.
public struct PixelBuffer: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// 1 (grey), 2 (grey + alpha), 3 (RGB) or 4 (RGBA).
    public let bands: Int
    /// `width × height × bands` bytes, row after row.
    public let bytes: [UInt8]

    /// A buffer of `bytes`, which must hold `width × height × bands` bytes, row after row.
    public init(width: Int, height: Int, bands: Int, bytes: [UInt8]) {
        self.width = width
        self.height = height
        self.bands = bands
        self.bytes = bytes
    }
}

extension Image {
    /// The image as 8-bit sRGB (or grey) pixels, alpha kept: converted with
    /// `vips_colourspace`/`vips_cast` when needed, then copied out with `vips_image_write_to_memory`.
    public func pixels() throws(ImagingError) -> PixelBuffer {
        try ImagingRuntime.ensureInitialised()
        let image = try standardizedToSRGB8()
        var size = 0
        guard let memory = vips_image_write_to_memory(image.pointer, &size) else {
            throw VipsErrors.decodingError()
        }
        defer { vgn_free(memory) }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: memory, count: size))
        return PixelBuffer(width: image.width, height: image.height, bands: image.bands, bytes: bytes)
    }

    /// Makes an image from interleaved 8-bit pixels (`vips_image_new_from_memory_copy`).
    public convenience init(pixels: PixelBuffer) throws(ImagingError) {
        try ImagingRuntime.ensureInitialised()
        guard pixels.width > 0, pixels.height > 0, (1...4).contains(pixels.bands),
            pixels.bytes.count == pixels.width * pixels.height * pixels.bands
        else {
            throw ImagingError(.invalidArgument, "pixel buffer size does not match \(pixels.width)x\(pixels.height)x\(pixels.bands)")
        }
        let made = pixels.bytes.withUnsafeBytes { raw in
            vips_image_new_from_memory_copy(
                raw.baseAddress, raw.count, Int32(pixels.width), Int32(pixels.height),
                Int32(pixels.bands), VIPS_FORMAT_UCHAR)
        }
        guard let made else { throw VipsErrors.operationError("vips_image_new_from_memory_copy") }
        // Tell libvips what the bands mean, so colour conversions and hasalpha work.
        made.pointee.`Type` = pixels.bands <= 2 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB
        self.init(owning: made)
    }
}
