/// What imgproxy's `/info` endpoint is asked to report about a source (imgproxy's names and
/// defaults; `VignetteImgproxy` reads its info options, `size:1/exif:0/avg:1/bh:4:3/chs:sha256/…`,
/// into one with `apply(_:delivery:)`), plus the recipe the
/// pixel facts are computed from: `ImageRecipe.placeholder` (the image upright and fitted into
/// 100 × 100, the same node as the `/placeholder` route's) with the options shared with image
/// URLs applied to it (`max_src_resolution`, `max_src_file_size`, `cachebuster`, `expires`).
///
/// Facts that need no pixels (size, format, dimensions, EXIF, IPTC, XMP, colour space, bands,
/// sample format, pages, alpha, crop coordinates) come from the header alone; `palette`, `average`,
/// `dominant_colors`, `blurhash` and `thumbhash` from the recipe's image; `calc_hashsums` from
/// the source's bytes; `detect_objects` from the pipeline's face detector (`ImagePipeline.faces(for:)`).
public struct ImageInfoOptions: Sendable, Hashable {
    /// imgproxy's `size`, `format` and `dimensions`: the source's byte count, format and width/height (on by default).
    public var size = true, format = true, dimensions = true
    /// imgproxy's `exif`, `iptc` and `xmp`: the metadata read by Vignette's own readers (on by default).
    public var exif = true, iptc = true, xmp = true
    /// imgproxy's `video_meta`: a video's container tags (`VideoInfo.tags`, FFmpeg's names);
    /// nothing for images.
    public var videoMeta = true
    /// imgproxy's `colorspace`, `bands`, `sample_format`, `pages_number` and `alpha`: header facts (off by default).
    public var colourSpace = false, bands = false, sampleFormat = false, pagesNumber = false, alpha = false
    /// A crop whose relative coordinates are reported (`crop:W:H:GRAVITY`); nil for none.
    public var crop: ImageRecipe.Crop?
    /// How many palette colours to report (0 for none, else 2–256).
    public var palette = 0
    /// imgproxy's `average` (`avg:1:IGNORE_TRANSPARENT`): the mean colour of the recipe's image.
    public var average = false, averageIgnoresTransparent = true
    /// imgproxy's `dominant_colors` (`dc:1:BUILD_MISSED`): the six Palette classes of the recipe's image.
    public var dominantColours = false, buildMissingColours = false
    /// BlurHash components across and down (1–9 each); 0 for no BlurHash.
    public var blurHashX = 0, blurHashY = 0
    /// imgproxy's `thumbhash`: the ThumbHash of the recipe's image.
    public var thumbHash = false
    /// imgproxy's `detect_objects` (`do:1`): the faces in the source, as imgproxy's `objects`
    /// (class `face`, confidence, relative box); needs the pipeline's `faceDetector`.
    public var detectObjects = false
    /// Digests of the source's bytes to report: md5, sha1, sha256, sha512.
    public var hashsums: [String] = []
    /// What the pixel facts are computed from (see the type's documentation).
    public var recipe = ImageRecipe.placeholder

    /// imgproxy's defaults: size, format, dimensions, EXIF, IPTC, XMP and video metadata on, the rest off.
    public init() {}

    /// The digests `calc_hashsums` may name.
    public static let hashsumKinds: Set<String> = ["md5", "sha1", "sha256", "sha512"]

    /// Whether the answer needs decoded pixels (the recipe's image).
    public var needsPixels: Bool {
        palette > 0 || average || dominantColours || blurHashX > 0 || thumbHash
    }

    /// Whether the answer needs the faces in the source (`detect_objects`, or a crop at `faces`).
    public var needsFaces: Bool { detectObjects || crop?.gravity == .faces }

    /// Whether the answer needs the source's bytes in memory (not only its header).
    public var needsBytes: Bool { !hashsums.isEmpty }

    /// A stable text of every option that changes the answer, for cache keys and ETags.
    public var identifier: String {
        var parts: [String] = []
        let flags: [(String, Bool)] = [
            ("s", size), ("f", format), ("d", dimensions), ("exif", exif), ("iptc", iptc), ("xmp", xmp), ("cs", colourSpace),
            ("bands", bands), ("sf", sampleFormat), ("pn", pagesNumber), ("a", alpha), ("th", thumbHash),
        ]
        parts.append(flags.map { $0.1 ? "1" : "0" }.joined())
        if let crop { parts.append("c\(crop.width)x\(crop.height)\(crop.gravity?.rawValue ?? "")\(crop.position.map { "\($0.x),\($0.y),\($0.isFocusPoint)" } ?? "")") }
        if palette > 0 { parts.append("p\(palette)") }
        if average { parts.append("avg\(averageIgnoresTransparent ? 1 : 0)") }
        if dominantColours { parts.append("dc\(buildMissingColours ? 1 : 0)") }
        if blurHashX > 0 { parts.append("bh\(blurHashX)x\(blurHashY)") }
        if !hashsums.isEmpty { parts.append("chs" + hashsums.joined(separator: ",")) }
        if detectObjects { parts.append("do") }
        if let buster = recipe.cacheBuster { parts.append("cb" + buster) }
        return "info1:" + parts.joined(separator: "/")
    }
}
