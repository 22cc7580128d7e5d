extension ImageRecipe {
    /// Every range a recipe's values must fall in: the one place the CLI, the server's URL options
    /// and a library user are checked against.
    public enum Ranges {
        /// A side of the box, before `dpr` (0: from the other side and the aspect ratio).
        public static let side = 0...ThumbnailOptions.maximumSide
        /// The device pixel ratio; it must also be above 0.
        public static let dpr = 0.0...8.0
        /// The blur's standard deviation (`vips_gaussblur`).
        public static let blur = 0.0...1000.0
        /// The sharpen's standard deviation (`vips_sharpen`).
        public static let sharpen = 0.0...100.0
        /// Output quality.
        public static let quality = 1...100
    }

    /// Throws `.invalidArgument` naming the first value out of `Ranges` (or a rotation that is not
    /// a multiple of 90), and `.limitExceeded` when the result would be over `limits.maxPixels`
    /// before any pixel is made (an enlarged or extended box).
    public func validate(limits: DecodingLimits = .untrusted) throws(ImagingError) {
        try Self.check(width, in: Ranges.side, "width")
        try Self.check(height, in: Ranges.side, "height")
        guard dpr.isFinite, dpr > 0, Ranges.dpr.contains(dpr) else {
            throw ImagingError(.invalidArgument, "dpr must be above 0 and at most \(Ranges.dpr.upperBound), got \(dpr)")
        }
        guard rotation % 90 == 0 else {
            throw ImagingError(.invalidArgument, "rotation must be a multiple of 90 degrees, got \(rotation)")
        }
        try Self.check(blur, in: Ranges.blur, "blur sigma")
        try Self.check(sharpen, in: Ranges.sharpen, "sharpen sigma")
        if let quality { try Self.check(quality, in: Ranges.quality, "quality") }
        for (format, quality) in formatQuality.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try Self.check(quality, in: Ranges.quality, "\(format.rawValue) quality")
        }
        let box = self.box
        guard box.width <= ThumbnailOptions.maximumSide, box.height <= ThumbnailOptions.maximumSide else {
            throw ImagingError(.invalidArgument, "dpr \(dpr) makes the box \(box), over \(ThumbnailOptions.maximumSide) pixels a side")
        }
        if enlarge || extend, box.width.multipliedReportingOverflow(by: box.height).partialValue > limits.maxPixels {
            throw ImagingError(.limitExceeded, "the result would be \(box), over the limit of \(limits.maxPixels) pixels")
        }
    }

    static func check<T: Comparable>(_ value: T, in range: ClosedRange<T>, _ name: String) throws(ImagingError) {
        guard range.contains(value) else {
            throw ImagingError(.invalidArgument, "\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
        }
    }

    static func check(_ value: Double, in range: ClosedRange<Double>, _ name: String) throws(ImagingError) {
        guard value.isFinite, range.contains(value) else {
            throw ImagingError(.invalidArgument, "\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
        }
    }
}
