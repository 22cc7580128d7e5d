extension ImageProcessors {
    /// Pads the image to the aspect ratio of `width` × `height` at a gravity (imgproxy's
    /// `extend_aspect_ratio`): the side that is short for that ratio grows, the other stays
    /// (`vips_gravity`).
    public struct ExtendAspectRatio: ImageProcessing, Hashable {
        /// The aspect ratio, as a size.
        public var width: Int, height: Int
        /// Where the image sits on the canvas.
        public var gravity: Gravity
        /// The fill colour, 0–255 per channel (opaque).
        public var red: Double, green: Double, blue: Double

        /// A padding to `width`:`height` with the image at `gravity` on the colour given.
        public init(width: Int, height: Int, gravity: Gravity = .centre, red: Double = 0, green: Double = 0, blue: Double = 0) {
            self.width = width
            self.height = height
            self.gravity = gravity
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// "extendAspectRatio(WxH,gravity,r,g,b)", for disk-cache keys.
        public var identifier: String { "extendAspectRatio(\(width)x\(height),\(gravity.rawValue),\(red),\(green),\(blue))" }

        /// The image on a canvas of the aspect ratio, as large as the image needs.
        public func process(_ image: Image) throws(ImagingError) -> Image {
            guard width > 0, height > 0 else { return image }
            let ratio = Double(width) / Double(height)
            let imageRatio = Double(image.width) / Double(image.height)
            var canvas = PixelSize(width: image.width, height: image.height)
            if imageRatio > ratio {
                canvas.height = max(image.height, Int((Double(image.width) / ratio).rounded()))
            } else if imageRatio < ratio {
                canvas.width = max(image.width, Int((Double(image.height) * ratio).rounded()))
            }
            guard canvas.width != image.width || canvas.height != image.height else { return image }
            return try image.extended(toWidth: canvas.width, height: canvas.height, gravity: gravity, background: (red, green, blue))
        }
    }

    /// Adds pixels around the image, CSS order (imgproxy's `padding`), filled with a colour
    /// (`vips_gravity`, once a side).
    public struct Padding: ImageProcessing, Hashable {
        /// Each side in pixels.
        public var top: Int, right: Int, bottom: Int, left: Int
        /// The fill colour, 0–255 per channel (opaque).
        public var red: Double, green: Double, blue: Double

        /// A padding of the sides given on the colour given.
        public init(top: Int, right: Int, bottom: Int, left: Int, red: Double = 0, green: Double = 0, blue: Double = 0) {
            self.top = top
            self.right = right
            self.bottom = bottom
            self.left = left
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// "padding(t,r,b,l,r,g,b)", for disk-cache keys.
        public var identifier: String { "padding(\(top),\(right),\(bottom),\(left),\(red),\(green),\(blue))" }

        /// The image with the sides added; `.invalidArgument` past 100000 pixels a side.
        public func process(_ image: Image) throws(ImagingError) -> Image {
            let fill = (red, green, blue)
            var padded = image
            // Each step grows one side: the image sits at the opposite edge of the wider canvas.
            for (amount, gravity, across) in [(left, Gravity.east, true), (right, .west, true), (top, .south, false), (bottom, .north, false)]
            where amount > 0 {
                let width = padded.width + (across ? amount : 0), height = padded.height + (across ? 0 : amount)
                padded = try padded.extended(toWidth: width, height: height, gravity: gravity, background: fill)
            }
            return padded
        }
    }

    /// Blocks of `size` × `size` pixels, each the average of the pixels it covers (imgproxy's
    /// `pixelate`): a reduction (`vips_resize`, linear) and a nearest-neighbour enlargement back.
    public struct Pixelate: ImageProcessing, Hashable {
        /// The block's side in pixels; 1 or less changes nothing.
        public var size: Int

        /// Blocks of `size` pixels.
        public init(size: Int) { self.size = size }

        /// "pixelate(N)", for disk-cache keys.
        public var identifier: String { "pixelate(\(size))" }

        /// The pixelated image, the same size as `image`.
        public func process(_ image: Image) throws(ImagingError) -> Image {
            guard size > 1 else { return image }
            let small = try image.resized(
                toWidth: (image.width + size - 1) / size, height: (image.height + size - 1) / size, kernel: .linear)
            let blocks = try small.resized(toWidth: small.width * size, height: small.height * size, kernel: .nearest)
            return try blocks.cropped(x: 0, y: 0, width: image.width, height: image.height)
        }
    }
}

extension ImageProcessors {
    /// A thumbnail of an image already decoded (`Image.resized(toFit:)`): every setting of
    /// `ThumbnailOptions` that applies to decoded pixels (the fit, zoom, minimum sides, the crop to
    /// the result and its position, the kernel, colour), then the blur. For steps that must come
    /// before the resize (a trim, a crop of the source), where shrink-on-load cannot be used.
    public struct Thumbnail: ImageProcessing, Hashable {
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
    public struct Trim: ImageProcessing, Hashable {
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
    public struct Region: ImageProcessing, Hashable {
        /// The region's sides: pixels from 1, a fraction below 1, the whole side at 0.
        public var width: Double, height: Double
        /// Where the region is taken from.
        public var anchor: CropAnchor
        /// Offsets from the anchor, or a focus point.
        public var position: CropPosition?

        /// A region of these sides at `anchor` moved by `position`.
        public init(width: Double, height: Double, anchor: CropAnchor = .centre, position: CropPosition? = nil) {
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
            let source = anchor == .attention ? try image.materialized() : image
            return try source.cropped(toRegionWidth: width, height: height, anchor: anchor, position: position)
        }
    }
}
