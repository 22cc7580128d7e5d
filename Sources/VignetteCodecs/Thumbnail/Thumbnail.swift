/// The decoding route a thumbnail took.
public enum ThumbnailRoute: Sendable, Hashable, CustomStringConvertible {
    /// An embedded thumbnail was decoded instead of the image: `heif` (a libheif thumbnail item)
    /// or `exif` (the JPEG EXIF thumbnail).
    case embeddedThumbnail(kind: String)
    /// The image was decoded at a reduced scale by its loader (JPEG DCT shrink, WebP scaled decode).
    case shrinkOnLoad(scale: Double)
    /// The image was decoded at full size, then resized.
    case fullDecode
    /// libvips' `vips_thumbnail` did the work.
    case vipsThumbnail

    /// The route in words, for logs and `vignette info`.
    public var description: String {
        switch self {
        case .embeddedThumbnail(let kind): "embedded \(kind) thumbnail"
        case .shrinkOnLoad(let scale): "shrink-on-load ×\(scale)"
        case .fullDecode: "full decode"
        case .vipsThumbnail: "vips_thumbnail"
        }
    }
}

/// A thumbnail and how it was made.
public struct Thumbnail: Sendable {
    /// The thumbnail, upright (unless `autoOrient` was off) and in memory.
    public let image: Image
    /// What the source's header said.
    public let source: ImageInfo
    /// Which decoding route made it.
    public let route: ThumbnailRoute
    /// The same pixels as Y/Cb/Cr planes when the planar JPEG route made them and nothing changed
    /// them since: what `Thumbnailer.encodedThumbnail` writes a JPEG from.
    var planes: YCbCrPlanes? = nil
    /// Whether the planar JPEG route decoded and resized it (with or without planes left).
    var decodedAsPlanes = false
}
