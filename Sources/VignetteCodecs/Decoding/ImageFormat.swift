/// An image file format, as the loader that recognised it names it.
public struct ImageFormat: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name, lowercase ("jpeg", "png", …).
    public let rawValue: String
    /// A format by name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// JPEG (libjpeg-turbo through libvips).
    public static let jpeg = ImageFormat(rawValue: "jpeg")
    /// PNG (libspng or libpng through libvips).
    public static let png = ImageFormat(rawValue: "png")
    /// WebP (libwebp).
    public static let webp = ImageFormat(rawValue: "webp")
    /// HEIF with HEVC (libheif).
    public static let heic = ImageFormat(rawValue: "heic")
    /// AVIF: HEIF with AV1 (libheif).
    public static let avif = ImageFormat(rawValue: "avif")
    /// GIF (libvips' nsgif loader).
    public static let gif = ImageFormat(rawValue: "gif")
    /// TIFF (libtiff through libvips).
    public static let tiff = ImageFormat(rawValue: "tiff")
    /// JPEG XL (libjxl through libvips' `jxlload`/`jxlsave`), media type image/jxl.
    public static let jxl = ImageFormat(rawValue: "jxl")
    /// SVG: sanitised by Vignette (`SVGSanitizer`), rendered by librsvg through libvips' `svgload`
    /// at the scale the result needs; media type image/svg+xml.
    public static let svg = ImageFormat(rawValue: "svg")
    /// PDF: one page rendered by poppler through libvips' `pdfload` at the resolution the result
    /// needs; an opt-in input (`DecodingLimits.allowedInputs`).
    public static let pdf = ImageFormat(rawValue: "pdf")
    /// BMP: read by Vignette's own decoder (1 to 32 bits, RLE4/RLE8, bit fields, OS/2 headers;
    /// libvips 8.14 reads it only through ImageMagick, which stays blocked), written by Vignette
    /// (`BMPWriter`); media type image/bmp.
    public static let bmp = ImageFormat(rawValue: "bmp")
    /// ICO (and CUR): an icon container, read by Vignette (the entry a result needs: a PNG through
    /// libvips' PNG loader, a bitmap through Vignette's BMP decoder), written as a PNG in an icon
    /// container (`ICOWriter`); media type image/x-icon.
    public static let ico = ImageFormat(rawValue: "ico")

    /// Whether the format is drawn rather than stored as pixels (SVG, PDF): its size is nominal,
    /// and it is rendered at the size a result needs, enlarged as freely as reduced.
    public var isVector: Bool { self == .svg || self == .pdf }

    /// The name.
    public var description: String { rawValue }

    /// The usual file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .heic: "heic"
        case .tiff: "tiff"
        default: rawValue
        }
    }

    /// The format a libvips loader stands for, from its nickname ("jpegload_source") or its class
    /// name ("VipsForeignLoadJpegSource"), as `vips_foreign_find_load_source` returns.
    static func fromLoader(_ loader: String) -> ImageFormat {
        var name = loader.lowercased()
        if name.hasPrefix("vipsforeignload") { name.removeFirst("vipsforeignload".count) }
        for suffix in ["_source", "_buffer", "source", "buffer", "file"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        if name.hasSuffix("load") { name.removeLast(4) }
        switch name {
        case "jpeg", "jpg": return .jpeg
        case "png": return .png
        case "webp": return .webp
        case "heif": return .heic
        case "gif", "nsgif": return .gif
        case "tiff": return .tiff
        case "jxl": return .jxl
        case "svg": return .svg
        case "pdf": return .pdf
        default: return ImageFormat(rawValue: name)
        }
    }
}
