import Vignette

/// The processing options of an imgproxy URL (`/rs:fill:300:200/q:80/…`), as imgproxy documents
/// them. Defaults are imgproxy's: fit, no size (the image's own), no enlarging, centre gravity.
public struct ProcessingOptions: Sendable, Equatable {
    /// How the image meets the box (`resizing_type`).
    public enum ResizingType: String, Sendable, CaseIterable {
        /// Inside the box, aspect kept.
        case fit
        /// Covers the box, cropped to it by `gravity`.
        case fill
        /// Like fill, but never bigger than the image: the box shrinks to fit it first.
        case fillDown = "fill-down"
        /// Exactly the box, aspect changed.
        case force
        /// fill when the image and the box have the same orientation, fit otherwise.
        case auto
    }

    /// Where a crop keeps the image (`gravity`): the compass points, the centre, or `sm` (smart:
    /// libvips' attention heuristic).
    public enum Gravity: String, Sendable, CaseIterable {
        case north = "no", south = "so", east = "ea", west = "we"
        case northEast = "noea", northWest = "nowe", southEast = "soea", southWest = "sowe"
        case centre = "ce", smart = "sm"
    }

    /// An opaque colour for `background`: the one `vignette thumbnail --background` uses too.
    public typealias Colour = ThumbnailOperations.Colour

    /// How the image meets the box (`resizing_type`, `rt`).
    public var resizingType: ResizingType = .fit
    /// The box in pixels; 0 means "from the other side and the aspect ratio" (both 0: no resize).
    public var width = 0
    /// See `width`.
    public var height = 0
    /// Whether an image smaller than the box is made bigger.
    public var enlarge = false
    /// Whether the result is padded to the box (`extend`).
    public var extend = false
    /// What a crop keeps (`gravity`, `g`).
    public var gravity: Gravity = .centre
    /// 1–100; nil for the format's default.
    public var quality: Int?
    /// The output format (`format`, or the URL's extension); nil to negotiate.
    public var format: ImageFormat?
    /// Gaussian blur sigma; 0 for none.
    public var blur: Double = 0
    /// Sharpen sigma; 0 for none.
    public var sharpen: Double = 0
    /// Clockwise rotation: 0, 90, 180 or 270.
    public var rotate = 0
    /// What transparent pixels are flattened onto; nil keeps alpha where the format has it.
    public var background: Colour?
    /// Multiplies the box (device pixel ratio), 0 < dpr ≤ 8.
    public var dpr: Double = 1
    /// Whether metadata is left out of the output (imgproxy's default: yes).
    public var stripMetadata = true
    /// Whether an embedded ICC profile is converted to sRGB and left out (`strip_color_profile`,
    /// `scp`; imgproxy's default: yes); false keeps the profile and the source's colours as they
    /// are (`ThumbnailOptions.keepProfile`).
    public var stripColorProfile = true
    /// Changes the URL (and the result's key) without changing the image.
    public var cacheBuster: String?

    /// imgproxy's defaults.
    public init() {}

    /// The largest box side a URL may ask for (after `dpr`).
    public static let maxSide = 16_384

    /// The operations around the thumbnail these options ask for, in the form `vignette
    /// thumbnail` shares: dpr, rotate, sharpen, background, and extend at the gravity.
    public var operations: ThumbnailOperations {
        ThumbnailOperations(
            dpr: dpr, rotation: rotate, sharpenSigma: sharpen, background: background, extend: extend,
            extendGravity: gravity.canvasGravity)
    }
}
