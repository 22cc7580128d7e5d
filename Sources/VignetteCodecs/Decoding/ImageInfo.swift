/// A width and a height in pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// A size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    /// "WxH".
    public var description: String { "\(width)x\(height)" }
}

/// What the header of an image says, read without decoding pixels.
public struct ImageInfo: Sendable, Hashable, Codable {
    /// The format the loader recognised (refined from libvips' loader name: AVIF vs HEIC).
    public var format: ImageFormat
    /// Width as stored, before the EXIF orientation is applied.
    public var width: Int
    /// Height as stored, before the EXIF orientation is applied.
    public var height: Int
    /// Channels per pixel, alpha included (1 grey … 4 RGBA; 4 or 5 for CMYK).
    public var bands: Int
    /// Whether one of the bands is alpha.
    public var hasAlpha: Bool
    /// EXIF orientation, 1 (upright) to 8.
    public var orientation: Int
    /// Number of pages or animation frames.
    public var pages: Int
    /// The largest embedded thumbnail (HEIF thumbnail item or JPEG EXIF thumbnail), if any.
    public var embeddedThumbnail: PixelSize?
    /// For a video container: its duration, codec and rotation (the poster's size is `width` ×
    /// `height`, upright); nil for images.
    public var video: VideoInfo? = nil
    /// Why the embedded ICC profile was ignored (it is for another colour space than the image's
    /// bands, or cannot be read: libvips' `vips_icc_is_compatible_profile`), nil when it was used
    /// or there is none. The image is then made as if it had no profile.
    public var ignoredProfile: String? = nil

    /// The size once the orientation is applied: orientations 5–8 swap width and height.
    public var uprightSize: PixelSize {
        orientation >= 5 ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
    }

    /// Whether the input is an animation: more than one frame, in a format read as one
    /// (`Animation.isAnimatable`: GIF and WebP; TIFF, PDF and HEIF pages are not frames).
    public var isAnimated: Bool { pages > 1 && Animation.isAnimatable(format) }
}

extension ImageInfo {
    /// What `header`, loaded from `source`, says (the format refined: AVIF or HEIC).
    init(source: LoadedSource, header: Image, embeddedThumbnail: PixelSize? = nil) {
        self.init(
            format: source.refinedFormat(of: header), width: header.width, height: header.height, bands: header.bands,
            hasAlpha: header.hasAlpha, orientation: header.orientation, pages: header.pageCount,
            embeddedThumbnail: embeddedThumbnail, ignoredProfile: header.ignoredProfile)
    }
}
