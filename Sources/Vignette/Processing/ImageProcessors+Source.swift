extension ImageProcessors {
    /// A thumbnail of an image already decoded (`Image.resized(toFit:)`): every setting of
    /// `ThumbnailOptions` that applies to decoded pixels (the fit, zoom, minimum sides, the crop to
    /// the result and its position, the kernel, colour), then the blur. For steps that must come
    /// before the resize (a trim, a crop of the source), where shrink-on-load cannot be used.
    package struct Thumbnail: ImageProcessing, Hashable {
        /// The thumbnail to make.
        public var options: ThumbnailOptions

        /// A thumbnail of `options`.
        public init(options: ThumbnailOptions) { self.options = options }

        /// The options' identifier, for disk-cache keys.
        public var identifier: String { options.identifier }

        /// The image resized to the options, then blurred by `options.blurSigma`.
        public func process(_ image: Image) throws(ImagingError) -> Image {
            try image.resized(toFit: options).blurred(sigma: options.blurSigma)
        }
    }

    /// The surrounding background cut away (`Image.trimmed`, imgproxy's `trim`).
    package struct Trim: ImageProcessing, Hashable {
        /// How far a pixel may be from the background and still be background.
        public var threshold: Double
        /// The background; nil for the top left pixel's colour.
        public var colour: ImageRecipe.Colour?
        /// Whether the left and right cuts are made equal, and the top and bottom ones.
        public var equalHorizontal: Bool, equalVertical: Bool

        /// A trim with these settings.
        public init(threshold: Double, colour: ImageRecipe.Colour? = nil, equalHorizontal: Bool = false, equalVertical: Bool = false) {
            self.threshold = threshold
            self.colour = colour
            self.equalHorizontal = equalHorizontal
            self.equalVertical = equalVertical
        }

        /// "trim(threshold,colour,h,v)", for disk-cache keys.
        public var identifier: String { "trim(\(threshold),\(colour.map(String.init(describing:)) ?? "auto"),\(equalHorizontal),\(equalVertical))" }

        /// The trimmed image.
        public func process(_ image: Image) throws(ImagingError) -> Image {
            try image.trimmed(threshold: threshold, background: colour?.channels, equalHorizontal: equalHorizontal, equalVertical: equalVertical)
        }
    }

    /// A region of the image before it is resized (`Image.cropped(toRegionWidth:height:anchor:position:)`,
    /// imgproxy's `crop`).
    package struct Region: ImageProcessing, Hashable {
        /// The region's sides: pixels from 1, a fraction below 1, the whole side at 0.
        public var width: Double, height: Double
        /// Where the region is taken from.
        public var anchor: Gravity
        /// Offsets from the anchor, or a focus point.
        public var position: CropPosition?

        /// A region of these sides at `anchor` moved by `position`.
        public init(width: Double, height: Double, anchor: Gravity = .centre, position: CropPosition? = nil) {
            self.width = width
            self.height = height
            self.anchor = anchor
            self.position = position
        }

        /// "region(WxH,anchor,position)", for disk-cache keys.
        public var identifier: String {
            "region(\(width)x\(height),\(anchor.rawValue),\(position.map { "\($0.x):\($0.y)\($0.isFocusPoint ? ":fp" : "")" } ?? "-"))"
        }

        /// The region (materialised first for `attention`, which reads the whole image).
        public func process(_ image: Image) throws(ImagingError) -> Image {
            let source = anchor.withoutFaces == .attention ? try image.materialized() : image
            return try source.cropped(toRegionWidth: width, height: height, anchor: anchor, position: position)
        }
    }
}
