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

    /// Makes an in-memory image of interleaved 8-bit pixels (`vips_image_new_memory`, the bytes
    /// copied into the buffer `vips_image_write_prepare` allocates), grey for 1 or 2 bands and
    /// sRGB for 3 or 4.
    public convenience init(pixels: PixelBuffer) throws(ImagingError) {
        try ImagingRuntime.ensureInitialised()
        guard pixels.width > 0, pixels.height > 0, (1...4).contains(pixels.bands),
            pixels.bytes.count == pixels.width * pixels.height * pixels.bands
        else {
            throw ImagingError(.invalidArgument, "pixel buffer size does not match \(pixels.width)x\(pixels.height)x\(pixels.bands)")
        }
        // What the bands mean is set with the size, so colour conversions and hasalpha work.
        try self.init(
            width: pixels.width, height: pixels.height, bands: pixels.bands,
            interpretation: pixels.bands <= 2 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB
        ) { output throws(ImagingError) in
            pixels.bytes.withUnsafeBytes { output.copyMemory(from: $0) }
        }
    }
}
