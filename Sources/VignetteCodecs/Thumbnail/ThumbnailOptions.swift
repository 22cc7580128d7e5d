/// How a thumbnail is made: the box, how the image fits it, and which decoding route to take.
public struct ThumbnailOptions: Sendable, Hashable, Codable {
    /// How the image relates to the `width` × `height` box.
    public enum Fit: String, Sendable, CaseIterable, Codable {
        /// Keep the aspect ratio; the whole image fits inside the box.
        case inside
        /// Keep the aspect ratio; the image covers the box and the overflow is cropped.
        case cover
        /// Stretch to the box exactly, ignoring the aspect ratio (imgproxy's `force`). Without
        /// upscaling, the side that would grow most stays as it is and the other keeps its
        /// proportion to it.
        case fill
        /// `cover` when the image and the box have the same orientation (both landscape or
        /// square, or both portrait), else `inside` (imgproxy's `auto`).
        case auto
    }

    /// Which decoding route makes the thumbnail.
    public enum Method: String, Sendable, CaseIterable, Codable {
        /// Vignette picks the largest JPEG DCT shrink (1/2, 1/4, 1/8) or WebP scaled decode that
        /// still covers the target, then resizes with `kernel`: faster than libvips' own thumbnail,
        /// within dHash distance 5 of it (figures in docs/performance.md).
        case shrinkOnLoad
        /// libvips' `vips_thumbnail`, which keeps a 2× margin before its final resize. libvips does
        /// all the work: embedded JPEG EXIF thumbnails are not used on this route.
        case vipsThumbnail
    }

    /// The box's width in pixels, 1–100000.
    public var width: Int
    /// The box's height in pixels, 1–100000.
    public var height: Int
    /// How the image meets the box.
    public var fit: Fit
    /// Which window `cover` keeps.
    public var crop: Gravity
    /// Whether images smaller than the box are enlarged.
    public var allowUpscaling: Bool
    /// Whether the EXIF orientation is applied (`vips_autorot`).
    public var autoOrient: Bool
    /// The resampling kernel of the final resize (Lanczos 3 by default).
    public var kernel: ResizeKernel
    /// Who makes the thumbnail: Vignette's own shrink-on-load plan, or libvips' `vips_thumbnail`.
    public var method: Method
    /// Whether an embedded thumbnail (HEIF thumbnail item, JPEG EXIF thumbnail) is used when it is
    /// at least as big as the thumbnail to make and has the image's aspect ratio.
    public var useEmbeddedThumbnail: Bool
    /// A gaussian blur of this standard deviation, in thumbnail pixels, applied after resizing
    /// (`vips_gaussblur`); 0 is none.
    public var blurSigma: Double = 0
    /// For animated GIF and WebP inputs: `.all` keeps every frame in a pipeline's encoded result
    /// when its encoding keeps animations (`ImagePipeline.encodedImage(for:as:)`, made with
    /// `Thumbnailer.animatedThumbnail`); `.first` (the default) makes a still of the first frame.
    /// The `Thumbnailer`'s own methods other than `animatedThumbnail` make stills.
    public var frames: FrameSelection = .first
    /// For a video source: the poster is the first frame at or after this second (imgproxy Pro's
    /// `video_thumbnail_second`), as `ffmpeg -ss` gives it; nil (the default) is the first frame.
    /// A second past the end of the stream gives its last frame.
    public var videoSecond: Double?
    /// Whether the thumbnail keeps the source's ICC profile, its pixels left in the source's colour
    /// space (the profile goes with them into the output, even when metadata are stripped). When
    /// false, the default, an image with a profile is converted through it to sRGB
    /// (`vips_icc_transform` to libvips' built-in sRGB profile, relative colorimetric intent) and
    /// comes out without a profile. CMYK sources always become sRGB (thumbnail formats hold RGB):
    /// through their profile, or libvips' built-in CMYK profile when they have none. Animations
    /// are always converted, and so is a GIF output, which holds no profile. With the profile
    /// kept, steps after the thumbnail that take a colour (a background to flatten onto or extend
    /// with) apply it to the kept pixels as it is, in the source's colour space.
    public var keepProfile = false
    /// Multiplies the scale the fit gives, across and down (imgproxy's `zoom`); 1 changes nothing.
    public var zoomX: Double = 1
    /// See `zoomX`.
    public var zoomY: Double = 1
    /// The result is at least this wide (imgproxy's `min-width`): the scale grows to reach it,
    /// and a box narrower than that crops the result to the box; 0 is none.
    public var minWidth = 0
    /// The result is at least this tall (imgproxy's `min-height`); see `minWidth`.
    public var minHeight = 0
    /// For `cover`: when the image is too small to cover the box (and is not enlarged), the result
    /// is cropped to the box's aspect ratio instead of keeping the image's (imgproxy's `fill-down`).
    public var keepsBoxAspect = false
    /// Where a crop to the result is taken from, beyond `crop`'s anchor: offsets inward from the
    /// anchored edges (or right and down from the centre), or a focus point. See `CropPosition`.
    public var cropPosition: CropPosition?
    /// The page of a PDF the thumbnail is made of, 0 for the first (imgproxy's `page`); other
    /// formats ignore it.
    public var page = 0
    /// Whether a side of the box may be 0, meaning the box does not bound that side (imgproxy's
    /// `rs:fit:0:200`): it follows the other side's scale, or, for `fill` or when both are 0, is not
    /// resized. Off by default, where each side must be at least 1.
    public var allowsZeroSides = false
    /// The device pixel ratio the box and the minimum sides are multiplied by, above 0. Without
    /// upscaling it is lowered to what the source allows (the scale the device pixel ratio really
    /// gives, `Image.dprScale`, is what the extend canvas and the padding after the thumbnail are
    /// multiplied by), as imgproxy does.
    public var dpr: Double = 1
    /// The steps after the thumbnail that make the result bigger and that `maxResultSide` counts:
    /// nothing by default. The thumbnailer does not apply them; it works out their sizes.
    public var canvas = ResultCanvas()
    /// The longest side the whole result may have (canvas included); when it would be longer, the
    /// thumbnail, the canvas and the padding shrink together (imgproxy's `max_result_dimension`).
    /// 0 is no limit.
    public var maxResultSide = 0

    /// Options for a `width` × `height` box; the others have the defaults their properties describe.
    public init(
        width: Int, height: Int, fit: Fit = .inside, crop: Gravity = .centre,
        allowUpscaling: Bool = false, autoOrient: Bool = true, kernel: ResizeKernel = .lanczos3,
        method: Method = .shrinkOnLoad, useEmbeddedThumbnail: Bool = true
    ) {
        self.width = width
        self.height = height
        self.fit = fit
        self.crop = crop
        self.allowUpscaling = allowUpscaling
        self.autoOrient = autoOrient
        self.kernel = kernel
        self.method = method
        self.useEmbeddedThumbnail = useEmbeddedThumbnail
    }

    /// A square box of `size` pixels.
    public init(size: Int, fit: Fit = .inside) {
        self.init(width: size, height: size, fit: fit)
    }

    /// Every setting as `name=value`, in declaration order, for cache keys: read by reflection,
    /// so a setting added later is in the key without anyone listing it.
    public var identifier: String {
        "thumbnail(" + Mirror(reflecting: self).children.map { "\($0.label ?? "")=\(Self.describe($0.value))" }.joined(separator: ",") + ")"
    }

    private static func describe(_ value: Any) -> String {
        if let position = value as? CropPosition { return "\(position.x):\(position.y)\(position.isFocusPoint ? ":fp" : "")" }
        if let optional = value as? CropPosition? { return optional.map(describe) ?? "-" }
        return "\(value)"
    }

    /// The longest side of a box, in pixels.
    public static let maximumSide = 100_000
    /// The highest page index asked for (the page count of a PDF poppler will read).
    public static let maximumPage = 100_000

    /// The latest video second a poster may be asked at: 24 hours.
    public static let maximumVideoSecond: Double = 86_400

    /// Throws `.invalidArgument` naming the first value out of range: a side of the box below 1 or
    /// over `maximumSide`, a zoom that is not above 0, a minimum side out of range, a blur sigma
    /// outside 0–1000. The thumbnailer checks this before reading anything; a pipeline checks it
    /// before loading the source, so a request that cannot be made is refused as such.
    public func validate() throws(ImagingError) {
        let least = allowsZeroSides ? 0 : 1
        guard width >= least, height >= least, width <= Self.maximumSide, height <= Self.maximumSide else {
            throw ImagingError(.invalidArgument, "thumbnail box must be between 1 and \(Self.maximumSide) pixels a side, got \(width)x\(height)")
        }
        guard dpr.isFinite, dpr > 0, dpr <= 100, maxResultSide >= 0, maxResultSide <= Self.maximumSide,
            [canvas.padding.top, canvas.padding.right, canvas.padding.bottom, canvas.padding.left].allSatisfy({ (0...Self.maximumSide).contains($0) })
        else {
            throw ImagingError(
                .invalidArgument, "dpr must be above 0 and at most 100, padding and the longest result side between 0 and \(Self.maximumSide)")
        }
        guard zoomX.isFinite, zoomY.isFinite, zoomX > 0, zoomY > 0, minWidth >= 0, minHeight >= 0,
            minWidth <= Self.maximumSide, minHeight <= Self.maximumSide
        else {
            throw ImagingError(.invalidArgument, "zoom must be above 0 and minimum sides between 0 and \(Self.maximumSide)")
        }
        if let videoSecond, !(videoSecond.isFinite && videoSecond >= 0 && videoSecond <= Self.maximumVideoSecond) {
            throw ImagingError(.invalidArgument, "video second must be between 0 and \(Int(Self.maximumVideoSecond)), got \(videoSecond)")
        }
        guard (0...Self.maximumPage).contains(page) else {
            throw ImagingError(.invalidArgument, "page must be between 0 and \(Self.maximumPage), got \(page)")
        }
        guard blurSigma.isFinite, (0...1000).contains(blurSigma) else {
            throw ImagingError(.invalidArgument, "blur sigma must be between 0 and 1000, got \(blurSigma)")
        }
    }
}

/// What follows a thumbnail and makes the result bigger (imgproxy's `extend`, `extend_aspect_ratio`
/// and `padding`), for the sizes `ThumbnailOptions.maxResultSide` and `dpr` give them.
public struct ResultCanvas: Sendable, Hashable, Codable {
    /// Whether the result is extended to the box (times the device pixel ratio and the zoom).
    public var extendsToBox = false
    /// Whether the result is extended to the box's aspect ratio.
    public var extendsToAspectRatio = false
    /// Pixels around the result, before the device pixel ratio.
    public var padding = Padding()

    /// Nothing added.
    public init() {}

    /// Pixels added around a result, CSS order.
    public struct Padding: Sendable, Hashable, Codable {
        /// Each side in pixels before the device pixel ratio.
        public var top = 0, right = 0, bottom = 0, left = 0

        /// No padding.
        public init() {}

        /// The sides given (CSS order).
        public init(top: Int, right: Int, bottom: Int, left: Int) {
            self.top = top
            self.right = right
            self.bottom = bottom
            self.left = left
        }

        /// Whether any side is padded.
        public var isEmpty: Bool { top == 0 && right == 0 && bottom == 0 && left == 0 }
    }
}

/// Where a crop is taken from beyond its anchor (imgproxy's gravity offsets and focus point).
public struct CropPosition: Sendable, Hashable, Codable {
    /// Offsets from the anchor: from an edge inward, from the centre right and down. A value of 1
    /// or more (or -1 or less) is pixels of the resized image; between -1 and 1, a fraction of its side.
    public var x: Double
    /// See `x`.
    public var y: Double
    /// When true, `x` and `y` (0–1 each) are a focus point instead: the crop is centred on it as
    /// far as the image allows, and the anchor is not used.
    public var isFocusPoint: Bool

    /// Offsets of `x` and `y` from the anchor, or a focus point at (`x`, `y`).
    public init(x: Double, y: Double, isFocusPoint: Bool = false) {
        self.x = x
        self.y = y
        self.isFocusPoint = isFocusPoint
    }
}
