internal import CVignetteImageShims
internal import CVignetteVips

extension Image {
    /// An in-memory 8-bit sRGB image (3 or 4 bands) whose pixels `write` fills: the video frame's
    /// destination, kept in a file without FFmpeg's module (one C module a file, so that neither
    /// hides the other's names).
    static func sRGB8(
        width: Int, height: Int, bands: Int, writingPixels write: (UnsafeMutableRawBufferPointer) throws(ImagingError) -> Void
    ) throws(ImagingError) -> Image {
        try Image(width: width, height: height, bands: bands, interpretation: VIPS_INTERPRETATION_sRGB, writingPixels: write)
    }
}
