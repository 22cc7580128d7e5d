/// How a pipeline encodes a result: a fixed format, or one chosen once the image is made (for
/// instance from an `Accept` header, with PNG for images that have alpha). `id` names the choice
/// in cache keys, so two requests with the same `id` share encoded bytes in memory and on disk.
public struct OutputEncoding: Sendable, Hashable, CustomStringConvertible {
    /// What the choice is called in cache keys; equal ids must make equal choices.
    public var id: String {
        let limited = maxBytes > 0 ? "\(choiceID)|max \(maxBytes) bytes" : choiceID
        let searched = search.map { limited + "|" + $0.id } ?? limited
        return keepsGainMap ? searched : searched + "|sdr"
    }
    /// The id of the format choice alone.
    let choiceID: String
    let choose: @Sendable (Image) -> EncodingFormat
    /// The most bytes the result may have (0: no limit); see `fitting(in:)`.
    public private(set) var maxBytes = 0
    /// How an animated GIF or WebP source is written when its request keeps every frame
    /// (`ThumbnailOptions.frames == .all`): animated WebP or GIF, every frame, its delays and loop
    /// count; nil writes a still of the first frame in the format `format(for:)` picks.
    /// `fixed(_:)` keeps animations in WebP and GIF; see `keepingAnimation(as:)`.
    public private(set) var animatedFormat: EncodingFormat?
    /// Whether a JPEG result of a JPEG source with a gain map (Ultra HDR, ISO 21496-1) keeps it:
    /// the gain map taken through the result's geometry and written as the MPF secondary image,
    /// with its metadata (`GainMapJPEG`). True by default; other formats are written SDR
    /// whatever it says. See `keepingGainMap(_:)`.
    public private(set) var keepsGainMap = true
    /// Whether the result is the SVG source itself, sanitised (`SVGDocument.sanitized`), with no
    /// decode and no processing: `sanitizedSVG`, imgproxy's `f:svg`.
    public private(set) var passesSVGThrough = false
    /// The autoquality and best-format search the result is made by (`searching(_:)`); nil
    /// writes `format(for:)` as it is.
    package internal(set) var search: Search?

    init(id: String, choose: @escaping @Sendable (Image) -> EncodingFormat) {
        choiceID = id
        self.choose = choose
    }

    /// This encoding, with a lossy format's quality lowered as far as needed for the result to
    /// fit in `bytes` (found by bisection over the quality, one encode each step); when even
    /// quality 1 does not fit, the smallest result is given. 0 removes the limit. Lossless and
    /// quality-less formats (PNG, GIF, lossless WebP) are written as they are.
    public func fitting(in bytes: Int) -> OutputEncoding {
        var encoding = self
        encoding.maxBytes = max(0, bytes)
        return encoding
    }

    /// Always `format` (`EncodingFormat.identifier` is the id); an animated source stays animated
    /// when `format` is WebP or GIF.
    public static func fixed(_ format: EncodingFormat) -> OutputEncoding {
        var encoding = OutputEncoding(id: format.identifier) { _ in format }
        if format.keepsAnimation { encoding.animatedFormat = format }
        return encoding
    }

    /// This encoding, with animated sources written as `format` when it is WebP or GIF (every
    /// frame kept), whatever `format(for:)` picks for stills; the id says so.
    public func keepingAnimation(as format: EncodingFormat) -> OutputEncoding {
        guard format.keepsAnimation else { return self }
        var encoding = OutputEncoding(id: "\(choiceID)|animated:\(format.identifier)", choose: choose)
        encoding.maxBytes = maxBytes
        encoding.search = search
        encoding.keepsGainMap = keepsGainMap
        encoding.animatedFormat = format
        return encoding
    }

    /// This encoding, with a source's gain map kept in JPEG results or not (`keepsGainMap`); the
    /// id says when it is not ("|sdr").
    public func keepingGainMap(_ keeps: Bool) -> OutputEncoding {
        var encoding = self
        encoding.keepsGainMap = keeps
        return encoding
    }

    /// The format an input with header `info` is written in as an animation by a request with
    /// `thumbnail` (nil: the input is decoded whole, a still): `animatedFormat` for an animation
    /// (`ImageInfo.isAnimated`) whose request keeps every frame (`ThumbnailOptions.frames`);
    /// nil for a still.
    package func animatedFormat(for info: ImageInfo, thumbnail: ThumbnailOptions?) -> EncodingFormat? {
        guard let animatedFormat, thumbnail?.frames == .all, info.isAnimated else { return nil }
        return animatedFormat
    }

    /// The SVG source itself, sanitised (`SVGDocument.sanitized`): imgproxy's `f:svg`, which it
    /// answers for SVG sources only (others fail with `.unsupportedFormat`).
    public static let sanitizedSVG: OutputEncoding = {
        // No image is ever encoded with it: the PNG is never chosen.
        var encoding = OutputEncoding(id: "svg") { _ in .png(PNGOptions()) }
        encoding.passesSVGThrough = true
        return encoding
    }()

    /// A choice made per image by `choose`, named `id`.
    public static func custom(id: String, _ choose: @escaping @Sendable (Image) -> EncodingFormat) -> OutputEncoding {
        OutputEncoding(id: "custom(\(id))", choose: choose)
    }

    /// JPEG at `quality` (nil: `ImageRecipe.defaultQuality(for:)`) for opaque images, PNG for
    /// images with alpha: what an `ImageRecipe` without a format writes for a client that takes
    /// neither AVIF nor WebP.
    public static func jpegOrPNG(quality: Int? = nil) -> OutputEncoding {
        var recipe = ImageRecipe()
        recipe.quality = quality
        return recipe.opaqueOrAlpha
    }

    /// The format for `image`.
    public func format(for image: Image) -> EncodingFormat { choose(image) }

    /// The id.
    public var description: String { id }
    /// Encodings are equal when their ids are.
    public static func == (a: OutputEncoding, b: OutputEncoding) -> Bool { a.id == b.id }
    /// Hashes the id.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension EncodingFormat {
    /// A stable name of the format and every option, for cache keys, e.g. "jpeg(q80,baseline,strip,huffman)".
    public var identifier: String {
        switch self {
        case .jpeg(let o):
            "jpeg(q\(o.quality),\(o.progressive ? "progressive" : "baseline"),\(o.keepMetadata ? "keep" : "strip"),\(o.optimizeCoding ? "optimized" : "huffman"))"
        case .png(let o):
            "png(z\(o.compression),\(o.keepMetadata ? "keep" : "strip"))"
        case .webp(let o):
            "webp(q\(o.quality),\(o.lossless ? "lossless" : "lossy"),e\(o.effort),aq\(o.alphaQuality))"
        case .heic(let o):
            "heic(q\(o.quality),\(o.lossless ? "lossless" : "lossy"),\(o.chroma.rawValue),s\(o.speed))"
        case .avif(let o):
            "avif(q\(o.quality),\(o.lossless ? "lossless" : "lossy"),\(o.chroma.rawValue),s\(o.speed))"
        case .gif(let o):
            "gif(e\(o.effort),b\(o.bitDepth),d\(o.dither))"
        case .jxl(let o):
            "jxl(q\(o.quality),\(o.lossless ? "lossless" : "lossy"),e\(o.effort))"
        case .tiff(let o):
            // The quality matters to JPEG compression only.
            "tiff(\(o.compression.rawValue)\(o.compression == .jpeg ? ",q\(o.quality)" : ""),\(o.keepMetadata ? "keep" : "strip"))"
        case .bmp:
            "bmp"
        case .ico:
            "ico"
        }
    }
}
