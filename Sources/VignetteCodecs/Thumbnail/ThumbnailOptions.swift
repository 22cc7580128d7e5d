/// How a thumbnail is made: the box, how the image fits it, and which decoding route to take.
public struct ThumbnailOptions: Sendable, Hashable, Codable {
    /// How the image relates to the `width` × `height` box.
    public enum Fit: String, Sendable, CaseIterable, Codable {
        /// Keep the aspect ratio; the whole image fits inside the box.
        case inside
        /// Keep the aspect ratio; the image covers the box and the overflow is cropped.
        case cover
        /// Stretch to the box exactly, ignoring the aspect ratio.
        case fill
        /// `cover` when the image and the box have the same orientation (both landscape or both
        /// portrait; a square goes with either), else `inside` (imgproxy's `auto`).
        case auto
    }

    /// Which decoding route makes the thumbnail.
    public enum Method: String, Sendable, CaseIterable, Codable {
        /// Vignette picks the largest JPEG DCT shrink (1/2, 1/4, 1/8) or WebP scaled decode that
        /// still covers the target, then resizes with `kernel`: 1.7× the rate of libvips' own
        /// thumbnail on sharp's JPEG task, within dHash distance 5 of it (Benchmarks/README.md).
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
    public var crop: CropAnchor
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
    /// For animated GIF and WebP inputs: `.all` keeps every frame when the thumbnail is encoded
    /// as WebP or GIF (`Thumbnailer.encodedThumbnail`, see `Thumbnailer.animatedThumbnail`);
    /// `.first` (the default) makes a still of the first frame.
    public var frames: FrameSelection = .first
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

    /// Options for a `width` × `height` box; the others have the defaults their properties describe.
    public init(
        width: Int, height: Int, fit: Fit = .inside, crop: CropAnchor = .centre,
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

    /// The longest side of a box, in pixels.
    public static let maximumSide = 100_000

    func validate() throws(ImagingError) {
        guard width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide else {
            throw ImagingError(.invalidArgument, "thumbnail box must be between 1 and \(Self.maximumSide) pixels a side, got \(width)x\(height)")
        }
        guard blurSigma.isFinite, (0...1000).contains(blurSigma) else {
            throw ImagingError(.invalidArgument, "blur sigma must be between 0 and 1000, got \(blurSigma)")
        }
    }
}
