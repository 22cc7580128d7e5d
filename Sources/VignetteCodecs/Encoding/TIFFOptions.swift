/// TIFF settings for libvips' `vips_tiffsave_buffer` (libtiff).
public struct TIFFOptions: Sendable, Hashable, Codable {
    /// How the strips are compressed.
    public enum Compression: String, Sendable, Hashable, Codable, CaseIterable {
        /// Uncompressed.
        case none
        /// zlib's deflate (Adobe deflate) with the horizontal predictor: lossless, the default.
        case deflate
        /// LZW with the horizontal predictor: lossless, read by every TIFF reader.
        case lzw
        /// JPEG at `quality`: lossy; images with alpha are flattened onto white first.
        case jpeg
    }

    /// The compression.
    public var compression: Compression
    /// 1–100, for `.jpeg` compression only.
    public var quality: Int
    /// Keep EXIF, ICC, XMP and IPTC metadata; stripped when false (an ICC profile the image
    /// carries is written either way, as for PNG).
    public var keepMetadata: Bool

    /// TIFF settings: deflate, quality 80 (for JPEG compression), metadata stripped, by default.
    public init(compression: Compression = .deflate, quality: Int = 80, keepMetadata: Bool = false) {
        self.compression = compression
        self.quality = quality
        self.keepMetadata = keepMetadata
    }
}
