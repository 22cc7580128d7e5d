extension ImageProcessors {
    /// A clockwise turn by an angle that is not a multiple of 90 (`Image.rotated(byDegrees:background:)`,
    /// `vips_rotate`): the canvas grows to the rotated bounding box, its corners filled with
    /// `background`, else transparent when the image has alpha, else white. Multiples of 90 are
    /// `Rotate`'s exact quarter turns.
    package struct RotateByAngle: ImageProcessing, Hashable {
        /// Degrees, clockwise.
        public var degrees: Double
        /// The corners' colour; nil for transparent (an image with alpha) or white.
        public var background: ImageRecipe.Colour?

        /// A turn of `degrees` onto `background`.
        public init(degrees: Double, background: ImageRecipe.Colour? = nil) {
            self.degrees = degrees
            self.background = background
        }

        /// "rotate(degrees,background)", for disk-cache keys.
        public var identifier: String { "rotate(\(degrees),\(background.map(String.init(describing:)) ?? "-"))" }

        /// The turned image (`vips_rotate`).
        public func process(_ image: Image) throws(ImagingError) -> Image {
            try image.rotated(byDegrees: degrees, background: background?.channels)
        }
    }
}
