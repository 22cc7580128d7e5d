/// The built-in processors. Each is a small value whose parameters make its identifiers.
public enum ImageProcessors {
    /// Resizes to a box (`ThumbnailOptions.Fit` semantics: inside, cover with a crop, fill),
    /// without enlarging unless `allowUpscaling`; `vips_resize` does the work.
    public struct Resize: ImageProcessing, Hashable {
        public var width: Int
        public var height: Int
        public var fit: ThumbnailOptions.Fit
        public var crop: CropAnchor
        public var allowUpscaling: Bool
        public var kernel: ResizeKernel

        public init(width: Int, height: Int, fit: ThumbnailOptions.Fit = .inside, crop: CropAnchor = .centre,
                    allowUpscaling: Bool = false, kernel: ResizeKernel = .lanczos3) {
            self.width = width
            self.height = height
            self.fit = fit
            self.crop = crop
            self.allowUpscaling = allowUpscaling
            self.kernel = kernel
        }

        public init(size: Int, fit: ThumbnailOptions.Fit = .inside) { self.init(width: size, height: size, fit: fit) }

        public var identifier: String {
            "resize(\(width)x\(height),\(fit.rawValue),\(crop.rawValue),\(allowUpscaling ? "up" : "down"),\(kernel.rawValue))"
        }

        public func process(_ image: Image) throws(ImagingError) -> Image {
            var options = ThumbnailOptions(width: width, height: height, fit: fit, crop: crop, allowUpscaling: allowUpscaling)
            options.kernel = kernel
            return try image.resized(toFit: options)
        }
    }

    /// Cuts out a rectangle (`vips_crop`).
    public struct Crop: ImageProcessing, Hashable {
        public var x: Int, y: Int, width: Int, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
        public var identifier: String { "crop(\(x),\(y),\(width)x\(height))" }
        public func process(_ image: Image) throws(ImagingError) -> Image {
            try image.cropped(x: x, y: y, width: width, height: height)
        }
    }

    /// A gaussian blur (`vips_gaussblur`).
    public struct GaussianBlur: ImageProcessing, Hashable {
        public var sigma: Double
        public init(sigma: Double) { self.sigma = sigma }
        public var identifier: String { "blur(\(sigma))" }
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.blurred(sigma: sigma) }
    }

    /// The largest centred circle, outside transparent.
    public struct Circle: ImageProcessing, Hashable {
        public init() {}
        public var identifier: String { "circle" }
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.circleMasked() }
    }

    /// Corners rounded to `radius` pixels, outside transparent.
    public struct RoundedCorners: ImageProcessing, Hashable {
        public var radius: Double
        public init(radius: Double) { self.radius = radius }
        public var identifier: String { "rounded(\(radius))" }
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.roundedCorners(radius: radius) }
    }

    /// Applies the EXIF orientation (`vips_autorot`).
    public struct AutoOrient: ImageProcessing, Hashable {
        public init() {}
        public var identifier: String { "autoOrient" }
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.autoOriented() }
    }

    /// Draws `overlay` over the image at (`x`, `y`) (`vips_composite2`). `overlayID` names the
    /// overlay in cache keys.
    public struct Composition: ImageProcessing {
        public var overlay: Image
        public var overlayID: String
        public var x: Int, y: Int
        public init(overlay: Image, overlayID: String, x: Int, y: Int) {
            self.overlay = overlay
            self.overlayID = overlayID
            self.x = x
            self.y = y
        }
        public var identifier: String { "composition(\(overlayID),\(x),\(y))" }
        public var hashableIdentifier: AnyHashable { AnyHashable(identifier) }
        public func process(_ image: Image) throws(ImagingError) -> Image { try image.composited(with: overlay, x: x, y: y) }
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
        public var identifier: String { id }
        public var hashableIdentifier: AnyHashable { AnyHashable(id) }
        public func process(_ image: Image) throws -> Image { try body(image) }
    }
}
