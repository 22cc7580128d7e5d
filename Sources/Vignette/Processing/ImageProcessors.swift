/// The built-in processors. Each is a small value whose parameters make its identifiers.
public enum ImageProcessors {
    /// Resizes to a box (`ThumbnailOptions.Fit` semantics: inside, cover with a crop, fill),
    /// without enlarging unless `allowUpscaling`; `vips_resize` does the work.
    package struct Resize: ImageProcessing, Hashable {
        /// The box's width in pixels.
        public var width: Int
        /// The box's height in pixels.
        public var height: Int
        /// How the image meets the box: inside (aspect kept), cover (cropped to the box), fill (stretched).
        public var fit: ThumbnailOptions.Fit
        /// What a cover fit keeps: the centre, an edge or a corner, or libvips' attention region (`vips_smartcrop`).
        public var crop: Gravity
        /// Whether an image smaller than the box is enlarged.
        public var allowUpscaling: Bool
        /// The resampling kernel `vips_resize` uses (Lanczos 3 by default).
        public var kernel: ResizeKernel

        /// A resize to `width` × `height` with these settings.
        public init(width: Int, height: Int, fit: ThumbnailOptions.Fit = .inside, crop: Gravity = .centre,
                    allowUpscaling: Bool = false, kernel: ResizeKernel = .lanczos3) {
            self.width = width
            self.height = height
            self.fit = fit
            self.crop = crop
            self.allowUpscaling = allowUpscaling
            self.kernel = kernel
        }

        /// A resize to a `size` × `size` box.
        public init(size: Int, fit: ThumbnailOptions.Fit = .inside) { self.init(width: size, height: size, fit: fit) }

        /// "resize(WxH,fit,crop,up|down,kernel)", for disk-cache keys.
        public var identifier: String {
            "resize(\(width)x\(height),\(fit.rawValue),\(crop.rawValue),\(allowUpscaling ? "up" : "down"),\(kernel.rawValue))"
        }

        /// The image resized into the box (`Image.resized(toFit:)`); throws `.invalidArgument` for an empty box.
        public func process(_ image: Image) throws(ImagingError) -> Image {
            var options = ThumbnailOptions(width: width, height: height, fit: fit, crop: crop, allowUpscaling: allowUpscaling)
            options.kernel = kernel
            return try image.resized(toFit: options)
        }
    }

    /// Cuts out a rectangle (`vips_crop`).
    package struct Crop: ImageProcessing, Hashable {
        /// The rectangle in pixels: its top-left corner and its size.
        public var x: Int, y: Int, width: Int, height: Int
        /// A crop of the rectangle at (`x`, `y`) of `width` × `height`.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
        /// "crop(x,y,WxH)", for disk-cache keys.
        public var identifier: String { "crop(\(x),\(y),\(width)x\(height))" }
        /// The rectangle (`vips_crop`); throws `.invalidArgument` when it is not inside the image.
        public func process(_ image: Image) throws(ImagingError) -> Image {
            try image.cropped(x: x, y: y, width: width, height: height)
        }
    }

    /// A gaussian blur (`vips_gaussblur`).
    package struct GaussianBlur: ImageProcessing, Hashable {
        /// The gaussian's standard deviation in pixels.
        public var sigma: Double
        /// A blur of standard deviation `sigma`.
        public init(sigma: Double) { self.sigma = sigma }
        /// "blur(sigma)", for disk-cache keys.
        public var identifier: String { "blur(\(sigma))" }
        /// The blurred image (`vips_gaussblur`; a sigma of 0 returns it as it is).
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.blurred(sigma: sigma) }
    }

    /// The largest centred circle, outside transparent.
    public struct Circle: ImageProcessing, Hashable {
        /// The circle mask.
        public init() {}
        /// "circle", for disk-cache keys.
        public var identifier: String { "circle" }
        /// The image with an alpha band that is transparent outside the circle.
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.circleMasked() }
    }

    /// Corners rounded to `radius` pixels, outside transparent.
    public struct RoundedCorners: ImageProcessing, Hashable {
        /// The corners' radius in pixels.
        public var radius: Double
        /// Corners rounded to `radius`.
        public init(radius: Double) { self.radius = radius }
        /// "rounded(radius)", for disk-cache keys.
        public var identifier: String { "rounded(\(radius))" }
        /// The image with an alpha band that is transparent outside the rounded rectangle.
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.roundedCorners(radius: radius) }
    }

    /// Applies the EXIF orientation (`vips_autorot`).
    package struct AutoOrient: ImageProcessing, Hashable {
        /// The orientation step.
        public init() {}
        /// "autoOrient", for disk-cache keys.
        public var identifier: String { "autoOrient" }
        /// The image turned upright as its EXIF orientation says (`vips_autorot`).
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.autoOriented() }
    }

    /// Draws `overlay` over the image at (`x`, `y`) (`vips_composite2`). `overlayID` names the
    /// overlay in cache keys.
    public struct Composition: ImageProcessing {
        /// The image drawn on top.
        public var overlay: Image
        /// Names `overlay` in cache keys (the pixels are not hashed): equal ids must mean equal overlays.
        public var overlayID: String
        /// Where the overlay's top-left corner goes, in pixels of the image.
        public var x: Int, y: Int
        /// `overlay`, named `overlayID`, drawn at (`x`, `y`).
        public init(overlay: Image, overlayID: String, x: Int, y: Int) {
            self.overlay = overlay
            self.overlayID = overlayID
            self.x = x
            self.y = y
        }
        /// "composition(overlayID,x,y)", for disk-cache keys.
        public var identifier: String { "composition(\(overlayID),\(x),\(y))" }
        /// The identifier string: the overlay is known by its id.
        public var hashableIdentifier: AnyHashable { AnyHashable(identifier) }
        /// The image with the overlay drawn over it (`vips_composite2`, "over" blending).
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.composited(with: overlay, x: x, y: y) }
    }

    /// Unsharp mask after downscaling (`vips_sharpen`).
    package struct Sharpen: ImageProcessing, Hashable {
        /// The mask's standard deviation in pixels, 0–100.
        public var sigma: Double
        /// A sharpen of standard deviation `sigma`.
        public init(sigma: Double) { self.sigma = sigma }
        /// "sharpen(sigma)", for disk-cache keys.
        public var identifier: String { "sharpen(\(sigma))" }
        /// The sharpened image (`Image.sharpened(sigma:)`).
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.sharpened(sigma: sigma) }
    }

    /// A clockwise turn by a multiple of 90 degrees (`vips_rot`).
    package struct Rotate: ImageProcessing, Hashable {
        /// 0, 90, 180 or 270 (other multiples of 90 wrap around).
        public var degrees: Int
        /// A turn of `degrees`.
        public init(degrees: Int) { self.degrees = degrees }
        /// "rotate(degrees)", for disk-cache keys.
        public var identifier: String { "rotate(\(degrees))" }
        /// The turned image; throws `.invalidArgument` for an angle that is not a multiple of 90.
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.rotated(degrees: degrees) }
    }

    /// A mirror image (`vips_flip`): left to right (a "flop", `horizontally`) or top to bottom (a "flip").
    package struct Flip: ImageProcessing, Hashable {
        /// Left to right when true (a flop), top to bottom when false (a flip).
        public var horizontally: Bool
        /// A mirror left to right (`horizontally`) or top to bottom.
        public init(horizontally: Bool) { self.horizontally = horizontally }
        /// "flop" (left to right) or "flip" (top to bottom), for disk-cache keys.
        public var identifier: String { horizontally ? "flop" : "flip" }
        /// The mirrored image (`Image.flipped(horizontally:)`).
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.flipped(horizontally: horizontally) }
    }

    /// Alpha composited onto an opaque colour (`vips_flatten`); an image without alpha passes as it is.
    package struct Flatten: ImageProcessing, Hashable {
        /// The background, 0–255 per channel.
        public var red: Double, green: Double, blue: Double
        /// A flatten onto the colour given (white by default).
        public init(red: Double = 255, green: Double = 255, blue: Double = 255) {
            self.red = red
            self.green = green
            self.blue = blue
        }
        /// "flatten(r,g,b)", for disk-cache keys.
        public var identifier: String { "flatten(\(red),\(green),\(blue))" }
        /// The image without alpha (`Image.flattened(red:green:blue:)`): a grey image onto a colour
        /// that is not grey comes out as sRGB.
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.flattened(red: red, green: green, blue: blue) }
    }

    /// Puts the image on a larger canvas at a gravity, filled with a colour (`vips_gravity`): a
    /// box (pads, or crops at the same gravity; a side of 0 is the image's own), the box's aspect
    /// ratio (imgproxy's `extend_aspect_ratio`: the short side grows), or pixels added around it
    /// (imgproxy's `padding`).
    package struct Extend: ImageProcessing, Hashable {
        /// The canvas the image is put on.
        package enum Canvas: Sendable, Hashable {
            /// Exactly this size; a side of 0 keeps the image's.
            case box(width: Int, height: Int)
            /// The smallest canvas of this aspect ratio that holds the image.
            case aspectRatio(width: Int, height: Int)
            /// The image's size plus these pixels on each side (CSS order).
            case padding(top: Int, right: Int, bottom: Int, left: Int)
        }

        /// The canvas.
        public var canvas: Canvas
        /// Where the image sits on the canvas (padding places it by its sides instead).
        public var gravity: Gravity
        /// The fill colour, 0–255 per channel (opaque).
        public var red: Double, green: Double, blue: Double
        /// When set, the canvas is given as a recipe gives it, in pixels before the device pixel
        /// ratio: a box's sides are multiplied by the ratio the thumbnail says applied
        /// (`Image.dprScale`, lowered for a small source or a longest side, as imgproxy's
        /// `DprScale`) and the zoom, padding by that ratio rounded half to even. Nil: pixels.
        public var scaling: Scaling?

        /// What a recipe's canvas is multiplied by (see `scaling`).
        package struct Scaling: Sendable, Hashable {
            /// The zoom across and down, for a box.
            public var zoomX: Double, zoomY: Double
            /// The device pixel ratio when the image records none (made by no thumbnail).
            public var fallback: Double

            /// Zooms and the device pixel ratio to use when the image records none.
            public init(zoomX: Double = 1, zoomY: Double = 1, fallback: Double = 1) {
                self.zoomX = zoomX
                self.zoomY = zoomY
                self.fallback = fallback
            }
        }

        /// The image on `canvas` at `gravity`, on the colour given.
        public init(canvas: Canvas, gravity: Gravity = .centre, red: Double = 0, green: Double = 0, blue: Double = 0) {
            self.canvas = canvas
            self.gravity = gravity
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// A canvas of `width` × `height` with the image at `gravity` on the colour given.
        public init(width: Int, height: Int, gravity: Gravity = .centre, red: Double = 0, green: Double = 0, blue: Double = 0) {
            self.init(canvas: .box(width: width, height: height), gravity: gravity, red: red, green: green, blue: blue)
        }

        /// "extend(WxH,gravity,r,g,b)" (with "aspect " or "pad t:r:b:l" for the other canvases),
        /// for disk-cache keys.
        public var identifier: String {
            let size = switch canvas {
            case .box(let width, let height): "\(width)x\(height)"
            case .aspectRatio(let width, let height): "aspect \(width)x\(height)"
            case .padding(let top, let right, let bottom, let left): "pad \(top):\(right):\(bottom):\(left)"
            }
            let scaled = scaling.map { " dpr(\($0.zoomX),\($0.zoomY),\($0.fallback))" } ?? ""
            return "extend(\(size)\(scaled),\(gravity.rawValue),\(red),\(green),\(blue))"
        }

        /// The image on the canvas (`Image.extended(toWidth:height:gravity:background:)`).
        public func process(_ image: Image) throws(ImagingError) -> Image {
            let fill = (red, green, blue)
            switch pixelCanvas(for: image) {
            case .box(let width, let height):
                return try image.extended(
                    toWidth: width == 0 ? image.width : width, height: height == 0 ? image.height : height,
                    gravity: gravity, background: fill)
            case .aspectRatio(let width, let height):
                guard width > 0, height > 0 else { return image }
                // imgproxy's: the side that would grow most keeps the image's length.
                let gainX = Double(width) / Double(image.width), gainY = Double(height) / Double(image.height)
                var size = PixelSize(width: image.width, height: image.height)
                if gainY > gainX { size.height = max(image.height, Int((Double(image.width) * (Double(height) / Double(width))).rounded())) }
                if gainX > gainY { size.width = max(image.width, Int((Double(image.height) * (Double(width) / Double(height))).rounded())) }
                guard size.width != image.width || size.height != image.height else { return image }
                return try image.extended(toWidth: size.width, height: size.height, gravity: gravity, background: fill)
            case .padding(let top, let right, let bottom, let left):
                // Each step grows one side: the image sits at the opposite edge of the wider canvas.
                var padded = image
                for (amount, edge, across) in [(left, Gravity.east, true), (right, .west, true), (top, .south, false), (bottom, .north, false)]
                where amount > 0 {
                    padded = try padded.extended(
                        toWidth: padded.width + (across ? amount : 0), height: padded.height + (across ? 0 : amount),
                        gravity: edge, background: fill)
                }
                return padded
            }
        }

        /// `canvas` in pixels for `image`: as it is, or multiplied as `scaling` says.
        func pixelCanvas(for image: Image) -> Canvas {
            guard let scaling else { return canvas }
            let dpr = image.dprScale ?? scaling.fallback
            func times(_ length: Int, _ factor: Double) -> Int { length == 0 ? 0 : Int(min(1e9, (Double(length) * factor).rounded())) }
            func evenly(_ length: Int) -> Int { length == 0 ? 0 : Int(min(1e9, (Double(length) * dpr).rounded(.toNearestOrEven))) }
            switch canvas {
            case .box(let width, let height): return .box(width: times(width, dpr * scaling.zoomX), height: times(height, dpr * scaling.zoomY))
            case .aspectRatio(let width, let height):
                return .aspectRatio(width: times(width, dpr * scaling.zoomX), height: times(height, dpr * scaling.zoomY))
            case .padding(let top, let right, let bottom, let left):
                return .padding(top: evenly(top), right: evenly(right), bottom: evenly(bottom), left: evenly(left))
            }
        }
    }

    /// Any transformation, named by `id` for the caches.
    public struct Anonymous: ImageProcessing {
        /// Names the closure's work in cache keys and coalescing.
        public let id: String
        let body: @Sendable (Image) throws -> Image
        /// A processor named `id` that runs `body`, which may throw any error.
        public init(id: String, _ body: @escaping @Sendable (Image) throws -> Image) {
            self.id = id
            self.body = body
        }
        /// The processor's `id`.
        public var identifier: String { id }
        /// The processor's `id`: two Anonymous processors with one id are the same step.
        public var hashableIdentifier: AnyHashable { AnyHashable(id) }
        /// What the closure returns for `image`; its errors are thrown as they are.
        public func process(_ image: Image) throws -> Image { try body(image) }
    }
}
