#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// One description of a result: what is done to an image, in imgproxy's processing order, and how
/// it is encoded. The library, `vignette thumbnail` (its flags and `--options`) and `vignette
/// serve` (imgproxy's URL options, `ImgproxyOptions`) all build one, so the same recipe gives the
/// same bytes through every front door.
///
/// A recipe holds no URL or flag. It checks itself (`validate(limits:)`, the one place for ranges),
/// plans the pipeline's work (`plan(limits:)`: the thumbnail, then the processors), chooses the
/// output encoding (`encoding(accepting:)`, with each format's default quality in one place) and
/// names itself for caches (`identifier`, from every field). The defaults change nothing: an
/// image at its own size, upright, converted to sRGB, metadata stripped.
///
/// The steps, in imgproxy's order: resize (`resizingType` into the box `width` × `height` × `dpr`,
/// shrink-on-load underneath, `enlarge`), the crop of a fill to the box at `gravity`, `rotation`
/// and the mirrors, `blur`, `sharpen`, `background` (alpha flattened onto it) and `extend` (padded
/// to the box at `extendGravity`).
public struct ImageRecipe: Sendable, Hashable, Codable {
    /// How the image meets the box (imgproxy's `resizing_type`).
    public enum ResizingType: String, Sendable, Hashable, Codable, CaseIterable {
        /// Inside the box, the aspect ratio kept.
        case fit
        /// Covers the box, the overflow cropped at `gravity`.
        case fill
        /// As fill, but never enlarged: when the image is smaller than the box, the result keeps
        /// the box's aspect ratio at the largest size the image gives.
        case fillDown = "fill-down"
        /// Exactly the box, the aspect ratio changed.
        case force
        /// fill when the image and the box have the same orientation, fit otherwise.
        case auto
    }

    /// How the image meets the box.
    public var resizingType: ResizingType = .fit
    /// The box's width in pixels before `dpr`; 0, as in imgproxy, leaves the width to the height's
    /// scale (for `force`, to the image's own width; both 0: the image's own size, even enlarged).
    public var width = 0
    /// The box's height; see `width`.
    public var height = 0
    /// Whether an image smaller than the box is made bigger.
    public var enlarge = false
    /// Multiplies the box (a device pixel ratio), above 0 and at most `Ranges.dpr`'s top. Without
    /// `enlarge` it is lowered, as imgproxy lowers it, to what the image gives without enlarging;
    /// the extend canvas and the padding are multiplied by what applied.
    public var dpr: Double = 1
    /// What a fill keeps: the centre, an edge or a corner, or libvips' attention region (`sm`).
    public var gravity: Gravity = .centre
    /// Offsets from `gravity`'s anchor, or a focus point (imgproxy's `g:nowe:10:10`, `g:fp:0.5:0.3`).
    public var gravityPosition: CropPosition?
    /// Multiplies the scale the fit gives, across and down (imgproxy's `zoom`), above 0.
    public var zoomX: Double = 1
    /// See `zoomX`.
    public var zoomY: Double = 1
    /// The result is at least this wide, in pixels before `dpr` (the box then crops it); 0 is none.
    public var minWidth = 0
    /// The result is at least this tall; see `minWidth`.
    public var minHeight = 0
    /// Whether the result is padded to the whole box (`vips_gravity`); a side of the box left to the
    /// aspect ratio keeps the image's.
    public var extend = false
    /// Where `extend` puts the image on the box.
    public var extendGravity: Gravity = .centre
    /// Whether the result is padded to the box's aspect ratio (imgproxy's `extend_aspect_ratio`).
    public var extendAspectRatio = false
    /// Where `extendAspectRatio` puts the image.
    public var extendAspectRatioGravity: Gravity = .centre
    /// Pixels added around the result, before `dpr`, filled with `background` (or transparent,
    /// or black without alpha).
    public var padding = ResultCanvas.Padding()
    /// The background cut away before anything else (imgproxy's `trim`); the image is then decoded
    /// at full size, without shrink-on-load.
    public var trim: Trim?
    /// A region of the source kept before the resize (imgproxy's `crop`); the image is then
    /// decoded at full size, without shrink-on-load.
    public var crop: Crop?
    /// Whether the EXIF orientation is applied before anything else (`vips_autorot`).
    public var autoRotate = true
    /// A clockwise turn in degrees after the resize, any finite angle. A multiple of 90 (others
    /// wrap: -90 is 270) is an exact quarter turn (`vips_rot`) and the box is turned for the
    /// resize; any other angle turns the thumbnail (`vips_rotate`) onto a canvas grown to the
    /// rotated bounding box, its corners `background`, else transparent where the image has
    /// alpha, else white.
    public var rotation: Double = 0
    /// Mirror left to right (`vips_flip`, horizontal), after the turn.
    public var flipHorizontally = false
    /// Mirror top to bottom (`vips_flip`, vertical), after the turn.
    public var flipVertically = false
    /// A gaussian blur of this standard deviation in result pixels (`vips_gaussblur`); 0 is none.
    public var blur: Double = 0
    /// An unsharp mask of this standard deviation in result pixels (`vips_sharpen`); 0 is none.
    public var sharpen: Double = 0
    /// Blocks of this many result pixels a side (imgproxy's `pixelate`); 0 and 1 are none.
    public var pixelate = 0
    /// What alpha is flattened onto (`vips_flatten`), and the fill of `extend`; nil keeps alpha
    /// (and `extend` fills with opaque black).
    public var background: Colour?
    /// An image drawn over the result (imgproxy's `watermark`); the image itself is the one the
    /// front door is configured with (`WatermarkImage`), given to `plan(limits:watermark:)`.
    public var watermark: Watermark?
    /// Whether metadata (EXIF, XMP, IPTC) is left out of the output.
    public var stripMetadata = true
    /// Whether a JPEG result of a JPEG source with an HDR gain map (Ultra HDR, ISO 21496-1) keeps
    /// it, taken through the same geometry, as the MPF secondary image with its metadata
    /// (`OutputEncoding.keepsGainMap`); false writes the SDR image alone, as every other format
    /// does. imgproxy's `preserve_hdr` names it in URLs.
    public var keepGainMap = true
    /// Whether an embedded ICC profile is converted to sRGB and left out; false keeps the profile
    /// and the source's colours as they are (`ThumbnailOptions.keepProfile`).
    public var stripColourProfile = true
    /// For animated GIF and WebP sources written as WebP or GIF: every frame, or a still of the first.
    public var frames: FrameSelection = .all
    /// The page of a PDF source, 0 for the first (imgproxy's `page`/`pg`; `ThumbnailOptions.page`).
    public var page = 0
    /// The second of a video source whose frame is the poster, nil for the first frame (imgproxy
    /// Pro's `video_thumbnail_second`/`vts`; `ThumbnailOptions.videoSecond`).
    public var videoSecond: Double?
    /// The output format; nil chooses one per image (`encoding(accepting:)`).
    public var format: ImageFormat?
    /// The quality of every lossy format, 1–100; nil for each format's default (`defaultQuality(for:)`).
    public var quality: Int?
    /// Per-format qualities (imgproxy's `format_quality`), over `quality`.
    public var formatQuality: [ImageFormat: Int] = [:]
    /// What a chosen format is for images with alpha when nothing in `accepting` is preferred:
    /// PNG by default (`vignette thumbnail --alpha-format`).
    public var alphaFormat: ImageFormat = .png
    /// The most bytes the result may have: the quality is lowered (by bisection) until it fits,
    /// or the smallest result is given; 0 is no limit. Applies to JPEG, WebP, AVIF, HEIC and JPEG XL.
    public var maxBytes = 0
    /// The quality chosen per image by a search (imgproxy's `autoquality`); nil for fixed qualities.
    public var autoQuality: AutoQuality?
    /// The format chosen per image as the smallest of several (imgproxy's `f:best`); nil otherwise.
    public var bestFormat: BestFormat?
    /// Limits for this result that may only lower the configured ones.
    public var limits = Limits()
    /// Changes the result's key (caches, ETag) without changing the image.
    public var cacheBuster: String?

    /// A recipe that leaves the image as it is (upright, sRGB, metadata stripped).
    public init() {}

    /// A recipe fitting `width` × `height` by `resizingType`.
    public init(width: Int, height: Int, resizingType: ResizingType = .fit) {
        self.width = width
        self.height = height
        self.resizingType = resizingType
    }
}

extension ImageRecipe {
    /// An opaque colour, 0–255 a channel.
    public struct Colour: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The channels, 0–255.
        public var red: UInt8, green: UInt8, blue: UInt8

        /// A colour from its channels.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// A colour written `RRGGBB` (hex, an optional leading `#`) or `R,G,B` (0–255 each);
        /// nil for anything else.
        public init?(parsing text: some StringProtocol) {
            let text = Substring(text)
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            if parts.count == 3 {
                let values = parts.compactMap(Colour.channel)
                guard values.count == 3 else { return nil }
                self.init(red: values[0], green: values[1], blue: values[2])
                return
            }
            let hex = text.hasPrefix("#") ? text.dropFirst() : text
            let isHexDigit = { (byte: UInt8) in (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte) }
            guard hex.utf8.count == 6, hex.utf8.allSatisfy(isHexDigit), let value = UInt32(hex, radix: 16) else { return nil }
            self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
        }

        /// One channel written 0–255 in at most three digits.
        static func channel(_ text: Substring) -> UInt8? {
            guard (1...3).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return UInt8(text)
        }

        /// "R,G,B".
        public var description: String { "\(red),\(green),\(blue)" }

        /// The channels as libvips takes them.
        var channels: (red: Double, green: Double, blue: Double) { (Double(red), Double(green), Double(blue)) }
    }
}

extension ImageRecipe {
    /// Pixels added around the result: the thumbnail's own `ResultCanvas.Padding` (one type for
    /// both), named here for the recipe's code.
    package typealias Padding = ResultCanvas.Padding

    /// Limits one result may ask for (imgproxy's `max_src_resolution`, `max_src_file_size`,
    /// `max_animation_frames`, `max_animation_frame_resolution`, `max_result_dimension`). Each only
    /// lowers what the pipeline is configured with (`lowering(_:)`); nil keeps it.
    public struct Limits: Sendable, Hashable, Codable {
        /// The most source pixels (imgproxy gives megapixels).
        public var maxSourcePixels: Int?
        /// The most source bytes.
        public var maxSourceBytes: Int?
        /// The most animation frames.
        public var maxFrames: Int?
        /// The most pixels of one frame of an animation kept whole (`DecodingLimits.maxAnimationFramePixels`).
        public var maxFramePixels: Int?
        /// The longest side of the result (extend canvas and padding included): when longer, the
        /// resize, the canvas and the padding shrink by one factor (imgproxy's `limitScale`).
        public var maxResultSide: Int?

        /// No limit of its own.
        public init() {}

        /// Whether no limit is set.
        public var isEmpty: Bool { self == Limits() }

        /// `configured` with every limit set here that is lower put in its place.
        public func lowering(_ configured: DecodingLimits) -> DecodingLimits {
            var limits = configured
            if let maxSourcePixels { limits.maxSourcePixels = min(limits.maxSourcePixels, maxSourcePixels) }
            if let maxSourceBytes { limits.maxInputBytes = min(limits.maxInputBytes, maxSourceBytes) }
            if let maxFrames { limits.maxFrames = min(limits.maxFrames, maxFrames) }
            if let maxFramePixels { limits.maxAnimationFramePixels = min(limits.maxAnimationFramePixels, maxFramePixels) }
            return limits
        }
    }
}

extension ImageRecipe {
    /// imgproxy's `trim`: the background around the image cut away.
    public struct Trim: Sendable, Hashable, Codable {
        /// How far a pixel may be from the background colour and still be background.
        public var threshold: Double
        /// The background; nil for the top left pixel's.
        public var colour: Colour?
        /// Whether the left and right cuts are made equal.
        public var equalHorizontal = false
        /// Whether the top and bottom cuts are made equal.
        public var equalVertical = false

        /// A trim of `threshold` around `colour` (nil: the top left pixel's).
        public init(threshold: Double, colour: Colour? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) {
            self.threshold = threshold
            self.colour = colour
            self.equalHorizontal = equalHorizontal
            self.equalVertical = equalVertical
        }
    }

    /// imgproxy's `crop`: a region of the upright source, before the resize.
    public struct Crop: Sendable, Hashable, Codable {
        /// The region's width: pixels from 1, a fraction of the source's below 1, all of it at 0.
        public var width: Double
        /// The region's height, likewise.
        public var height: Double
        /// Where it is taken from; nil for the recipe's `gravity`.
        public var gravity: Gravity?
        /// Offsets from the anchor, or a focus point; used with `gravity`.
        public var position: CropPosition?

        /// A region of `width` × `height` at `gravity`.
        public init(width: Double, height: Double, gravity: Gravity? = nil, position: CropPosition? = nil) {
            self.width = width
            self.height = height
            self.gravity = gravity
            self.position = position
        }
    }
}

extension ImageRecipe {
    /// Where and how the configured watermark is drawn (imgproxy's `wm:opacity:position:x:y:scale`).
    public struct Watermark: Sendable, Hashable, Codable {
        /// 0–1, multiplied into the watermark's alpha.
        public var opacity: Double
        /// The anchor; nil tiles the watermark across the whole result (imgproxy's `re`).
        public var anchor: Gravity?
        /// Offsets from the anchor (pixels from 1, else a share of the side), or the spacing of tiles.
        public var x: Double, y: Double
        /// Its width as a share of the result's; 0 keeps its size (or smaller, to fit).
        public var scale: Double

        /// A watermark of `opacity` at `anchor` (nil: tiled), offsets and scale.
        public init(opacity: Double, anchor: Gravity? = .centre, x: Double = 0, y: Double = 0, scale: Double = 0) {
            self.opacity = opacity
            self.anchor = anchor
            self.x = x
            self.y = y
            self.scale = scale
        }
    }

    /// The watermark image a front door is configured with (`vignette serve --watermark FILE`),
    /// decoded once under the decoding budget and kept in memory, named by its bytes' SHA-256.
    public struct WatermarkImage: Sendable {
        /// The decoded image.
        public let image: Image
        /// The SHA-256 of its bytes, in cache keys.
        public let id: String

        /// The watermark decoded from `data` within `limits` (`ImageDecoder`), upright.
        public init(data: Data, limits: DecodingLimits = .untrusted) throws(ImagingError) {
            image = try ImageDecoder(limits: limits).decode(data).autoOriented().materialized()
            id = DataCache.digest(of: data)
        }
    }
}
