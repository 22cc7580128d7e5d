extension ImageProcessors {
    /// An image drawn over the result (imgproxy's `watermark`): scaled to a share of the result's
    /// width (or down to fit inside it), made `opacity` transparent, then placed at an anchor with
    /// offsets or tiled across the whole result (`vips_composite2`).
    package struct Watermark: ImageProcessing {
        /// Where the watermark goes.
        package enum Placement: Sendable, Hashable {
            /// At an anchor, moved by offsets (inward from the anchored edges): pixels before the
            /// dpr from 1 up, a share of the image below 1.
            case anchored(Gravity, CropPosition?)
            /// Repeated across the whole image, `spacing` pixels apart (x, y), before the dpr.
            case tiled(spacingX: Double, spacingY: Double)
        }

        /// The watermark image, decoded once.
        public let overlay: Image
        /// Names the watermark image in cache keys (its bytes' digest).
        public let overlayID: String
        /// 0–1, multiplied into the watermark's alpha.
        public var opacity: Double
        /// Where it goes.
        public var placement: Placement
        /// Its width as a share of the result's (0: its own size, or smaller to fit).
        public var scale: Double
        /// The dpr the offsets and spacing are multiplied by when the image does not record the
        /// one that applied (`Image.dprScale`: the thumbnail lowers it to what the source gives,
        /// as imgproxy does).
        public var dpr: Double

        /// A watermark of `overlay` (named `overlayID`) with these settings.
        public init(overlay: Image, overlayID: String, opacity: Double, placement: Placement, scale: Double, dpr: Double = 1) {
            self.overlay = overlay
            self.overlayID = overlayID
            self.opacity = opacity
            self.placement = placement
            self.scale = scale
            self.dpr = dpr
        }

        /// "watermark(id,opacity,placement,scale)" and the dpr when not 1, for disk-cache keys.
        public var identifier: String {
            "watermark(\(overlayID),\(opacity),\(placement),\(scale)" + (dpr == 1 ? ")" : ",dpr(\(dpr)))")
        }
        /// The identifier string: the overlay is known by its id.
        public var hashableIdentifier: AnyHashable { AnyHashable(identifier) }

        /// The image with the watermark drawn over it; a watermark larger than the image is scaled
        /// down to fit inside it.
        public func process(_ image: Image) throws(ImagingError) -> Image {
            var mark = overlay
            if scale > 0 {
                let width = max(1, Int((Double(image.width) * scale).rounded()))
                mark = try mark.resized(toWidth: width, height: max(1, mark.height * width / max(1, mark.width)))
            }
            if mark.width > image.width || mark.height > image.height {
                let factor = min(Double(image.width) / Double(mark.width), Double(image.height) / Double(mark.height))
                mark = try mark.resized(
                    toWidth: max(1, Int(Double(mark.width) * factor)), height: max(1, Int(Double(mark.height) * factor)))
            }
            mark = try mark.withOpacity(opacity)
            let dpr = image.dprScale ?? self.dpr
            switch placement {
            case .anchored(let anchor, let position):
                func pixels(_ offset: Double) -> Double { abs(offset) >= 1 ? offset * dpr : offset }
                return try image.composited(with: mark, at: anchor, position: position.map { CropPosition(x: pixels($0.x), y: pixels($0.y)) })
            case .tiled(let spacingX, let spacingY):
                let spacingX = Int(spacingX * dpr), spacingY = Int(spacingY * dpr)
                // One composite a tile, at most 4096 tiles (a tiny watermark on a large image).
                let stepX = max(1, mark.width + max(0, spacingX)), stepY = max(1, mark.height + max(0, spacingY))
                guard (image.width / stepX + 1) * (image.height / stepY + 1) <= 4096 else {
                    throw ImagingError(.invalidArgument, "the watermark is too small to tile this image")
                }
                var tiled = image
                for y in stride(from: 0, to: image.height, by: stepY) {
                    for x in stride(from: 0, to: image.width, by: stepX) {
                        let piece = try mark.cropped(x: 0, y: 0, width: min(mark.width, image.width - x), height: min(mark.height, image.height - y))
                        tiled = try tiled.composited(with: piece, at: .northWest, position: CropPosition(x: Double(x), y: Double(y)))
                    }
                }
                return tiled
            }
        }
    }
}
