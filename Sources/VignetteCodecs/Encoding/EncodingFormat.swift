/// JPEG settings for libvips' `vips_jpegsave_buffer`.
public struct JPEGOptions: Sendable, Hashable, Codable {
    /// 1–100.
    public var quality: Int
    /// Whether scans are written progressively (coarse first), as `vips_jpegsave`'s `interlace`.
    public var progressive: Bool
    /// Keep EXIF, ICC, XMP and IPTC metadata; stripped when false.
    public var keepMetadata: Bool
    /// Optimised Huffman tables: smaller files for a slower encode. Off by default, as in
    /// libvips and Pillow (and so in the benchmarks against them).
    public var optimizeCoding: Bool

    /// JPEG settings: quality 80, baseline, metadata stripped, standard Huffman tables by default.
    public init(quality: Int = 80, progressive: Bool = false, keepMetadata: Bool = false, optimizeCoding: Bool = false) {
        self.quality = quality
        self.progressive = progressive
        self.keepMetadata = keepMetadata
        self.optimizeCoding = optimizeCoding
    }
}

/// PNG settings for libdeflate's compressor (`PNGWriter`) or libvips' `vips_pngsave_buffer`.
public struct PNGOptions: Sendable, Hashable, Codable {
    /// zlib level, 0–9.
    public var compression: Int
    /// Keep EXIF, ICC and XMP metadata; stripped when false.
    public var keepMetadata: Bool

    /// PNG settings: zlib level 6, metadata stripped, by default.
    public init(compression: Int = 6, keepMetadata: Bool = false) {
        self.compression = compression
        self.keepMetadata = keepMetadata
    }
}

/// WebP settings for libwebp's `WebPEncode`.
public struct WebPOptions: Sendable, Hashable, Codable {
    /// 0–100: for lossy, visual quality; for lossless, how hard to compress.
    public var quality: Int
    /// Whether the encode is lossless (`WebPConfig.lossless`).
    public var lossless: Bool
    /// libwebp `method`: 0 (fastest) to 6 (smallest).
    public var effort: Int
    /// Quality of the alpha plane, 0–100.
    public var alphaQuality: Int

    /// WebP settings: quality 80, lossy, method 4, alpha quality 100 by default.
    public init(quality: Int = 80, lossless: Bool = false, effort: Int = 4, alphaQuality: Int = 100) {
        self.quality = quality
        self.lossless = lossless
        self.effort = effort
        self.alphaQuality = alphaQuality
    }
}

/// HEIC (x265) and AVIF (aom) settings for libheif's encoders.
public struct HEIFOptions: Sendable, Hashable, Codable {
    /// The chroma subsampling of the coded image: 4:2:0 (half resolution) or 4:4:4 (full).
    public enum Chroma: String, Sendable, Hashable, Codable, CaseIterable {
        case yuv420 = "420"
        case yuv444 = "444"
    }

    /// 0–100.
    public var quality: Int
    /// Whether the encode is lossless (libheif's `heif_encoder_set_lossless`).
    public var lossless: Bool
    /// The chroma subsampling.
    public var chroma: Chroma
    /// Encoder speed from 0 (slowest) to 9 (fastest). For x265 this picks a preset (`placebo` …
    /// `ultrafast`, 3 is libheif's default `slow`); for aom it is the `speed` parameter. The
    /// default, 9, was chosen by measurement (`VignetteBench encoder-speeds`, docs/performance.md):
    /// several times faster than the encoders' defaults for files of about the same size and PSNR.
    public var speed: Int

    /// HEIC or AVIF settings: quality 50, 4:2:0, speed 9, by default.
    public init(quality: Int = 50, lossless: Bool = false, chroma: Chroma = .yuv420, speed: Int = 9) {
        self.quality = quality
        self.lossless = lossless
        self.chroma = chroma
        self.speed = speed
    }
}

/// An output format with its settings.
public enum EncodingFormat: Sendable, Hashable, Codable {
    case jpeg(JPEGOptions)
    case png(PNGOptions)
    case webp(WebPOptions)
    case heic(HEIFOptions)
    case avif(HEIFOptions)
    /// GIF through libvips' `vips_gifsave_buffer`; animations keep their frames (see `GIFOptions`).
    case gif(GIFOptions)
    /// JPEG XL through libvips' `vips_jxlsave_buffer` (libjxl).
    case jxl(JXLOptions)
    /// TIFF through libvips' `vips_tiffsave_buffer` (libtiff).
    case tiff(TIFFOptions)
    /// BMP written by Vignette's `BMPWriter` (libvips 8.14 has no BMP saver but ImageMagick's,
    /// which is blocked): 24-bit BGR, or 32-bit BGRA with a `BITMAPV4HEADER` for images with alpha.
    case bmp
    /// ICO written by Vignette's `ICOWriter`: one PNG image (`PNGWriter` or `vips_pngsave_buffer`)
    /// in an ICO container. ICO holds at most 256×256: a larger image is refused with
    /// `ImagingError.Kind.invalidArgument`, as imgproxy does; resize it first.
    case ico

    /// The format written.
    public var format: ImageFormat {
        switch self {
        case .jpeg: .jpeg
        case .png: .png
        case .webp: .webp
        case .heic: .heic
        case .avif: .avif
        case .gif: .gif
        case .jxl: .jxl
        case .tiff: .tiff
        case .bmp: .bmp
        case .ico: .ico
        }
    }

    /// Bytes of working memory the encoder needs per pixel, beyond the image itself. Measured
    /// with `vignette convert` on a 100-megapixel JPEG: libvips' JPEG and PNG savers stream
    /// (about 0); libwebp holds an ARGB picture and its YUV planes (about 6); libheif copies the
    /// image into YUV planes and x265/aom keep several frames of their own (16–18, so 20).
    var workingBytesPerPixel: Int {
        switch self {
        case .jpeg, .png: 0
        case .webp: 6
        case .heic, .avif: 20
        // libvips' GIF saver quantises a whole frame at a time (RGBA in, an index byte out).
        case .gif: 5
        case .jxl(let options): options.workingBytesPerPixel
        // libtiff compresses strip by strip as libvips streams them (a 6-megapixel deflate TIFF
        // peaked 1.5 MB above the PNG saver's streamed run).
        case .tiff: 0
        // BMPWriter holds the pixels (up to 4 bytes) and the file it writes (up to 4 more).
        case .bmp: 8
        // At most 256×256: the pixels, the PNG and the file; small whatever the count.
        case .ico: 8
        }
    }
}
