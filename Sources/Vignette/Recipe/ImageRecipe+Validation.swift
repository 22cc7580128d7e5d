extension ImageRecipe {
    /// Every range a recipe's values must fall in: the one place the CLI, the server's URL options
    /// and a library user are checked against.
    package enum Ranges {
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
        /// The zoom across or down; it must also be above 0.
        public static let zoom = 0.0...100.0
        /// Each side's padding, before `dpr`.
        public static let padding = 0...ThumbnailOptions.maximumSide
        /// The pixelate block size.
        public static let pixelate = 0...10_000
        /// The most bytes a result may be asked to fit (0: no limit).
        public static let maxBytes = 0...(1 << 30)
        /// An autoquality `ssimulacra2` target: a SSIMULACRA2 score.
        public static let autoQualityScore = 0.0...100.0
        /// An autoquality `size` target, in bytes.
        public static let autoQualityBytes = 1.0...Double(1 << 30)
        /// An autoquality allowed error, in score points.
        public static let autoQualityError = 0.0...100.0
        /// A best-format complexity threshold (`ImageComplexity`).
        public static let complexityThreshold = 0.0...255.0
        /// A focus point's coordinates.
        public static let focusPoint = 0.0...1.0
        /// A gravity offset: pixels, or a fraction of the side between -1 and 1.
        public static let offset = -100_000.0...100_000.0
        /// A rotation, degrees either way (any finite angle would do: this keeps the text short).
        public static let rotation = -1_000_000.0...1_000_000.0
    }

    /// Throws `.invalidArgument` naming the first value out of `Ranges` (or a rotation that is not
    /// a finite number), and `.limitExceeded` when the result would be over `limits.maxPixels`
    /// before any pixel is made (an enlarged or extended box).
    public func validate(limits: DecodingLimits = .untrusted) throws(ImagingError) {
        try Self.check(width, in: Ranges.side, "width")
        try Self.check(height, in: Ranges.side, "height")
        guard dpr.isFinite, dpr > 0, Ranges.dpr.contains(dpr) else {
            throw ImagingError(.invalidArgument, "dpr must be above 0 and at most \(Ranges.dpr.upperBound), got \(dpr)")
        }
        guard rotation.isFinite, Ranges.rotation.contains(rotation) else {
            throw ImagingError(.invalidArgument, "rotation must be a finite number of degrees, got \(rotation)")
        }
        try Self.check(blur, in: Ranges.blur, "blur sigma")
        try Self.check(sharpen, in: Ranges.sharpen, "sharpen sigma")
        for (zoom, name) in [(zoomX, "zoom"), (zoomY, "zoom")] {
            guard zoom.isFinite, zoom > 0, Ranges.zoom.contains(zoom) else {
                throw ImagingError(.invalidArgument, "\(name) must be above 0 and at most \(Ranges.zoom.upperBound), got \(zoom)")
            }
        }
        try Self.check(minWidth, in: Ranges.side, "min-width")
        try Self.check(minHeight, in: Ranges.side, "min-height")
        for side in [padding.top, padding.right, padding.bottom, padding.left] { try Self.check(side, in: Ranges.padding, "padding") }
        try Self.check(pixelate, in: Ranges.pixelate, "pixelate")
        try Self.check(maxBytes, in: Ranges.maxBytes, "max bytes")
        if let position = gravityPosition {
            let range = position.isFocusPoint ? Ranges.focusPoint : Ranges.offset
            try Self.check(position.x, in: range, position.isFocusPoint ? "focus point x" : "gravity x offset")
            try Self.check(position.y, in: range, position.isFocusPoint ? "focus point y" : "gravity y offset")
        }
        for value in [self.limits.maxSourcePixels, self.limits.maxSourceBytes, self.limits.maxFrames, self.limits.maxFramePixels, self.limits.maxResultSide] {
            if let value, value < 1 { throw ImagingError(.invalidArgument, "a limit must be at least 1, got \(value)") }
        }
        if let watermark {
            try Self.check(watermark.opacity, in: 0...1, "watermark opacity")
            try Self.check(watermark.scale, in: 0...1, "watermark scale")
            try Self.check(watermark.x, in: Ranges.offset, "watermark x offset")
            try Self.check(watermark.y, in: Ranges.offset, "watermark y offset")
        }
        if let trim { try Self.check(trim.threshold, in: 0...255, "trim threshold") }
        if let crop {
            try Self.check(crop.width, in: 0...Double(Ranges.side.upperBound), "crop width")
            try Self.check(crop.height, in: 0...Double(Ranges.side.upperBound), "crop height")
        }
        if let quality { try Self.check(quality, in: Ranges.quality, "quality") }
        try validateSearch()
        for (format, quality) in formatQuality.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try Self.check(quality, in: Ranges.quality, "\(format.rawValue) quality")
        }
        let box = self.box
        guard box.width <= ThumbnailOptions.maximumSide, box.height <= ThumbnailOptions.maximumSide else {
            throw ImagingError(.invalidArgument, "dpr \(dpr) makes the box \(box), over \(ThumbnailOptions.maximumSide) pixels a side")
        }
        // A result that can be bigger than its source (enlarged, zoomed, extended, padded) is
        // checked from the box before any pixel is made; the thumbnail itself is checked again
        // from the source's header.
        let grows = enlarge || extend || extendAspectRatio || zoomX > 1 || zoomY > 1 || minWidth > 0 || minHeight > 0
        if grows || !padding.isEmpty {
            let result = self.largestResult
            let (area, overflow) = result.width.multipliedReportingOverflow(by: result.height)
            if overflow || area > self.limits.lowering(limits).maxPixels {
                let cause = [(extend, "extend"), (extendAspectRatio, "extend aspect ratio"), (enlarge, "enlarge"),
                             (zoomX > 1 || zoomY > 1, "zoom"), (minWidth > 0 || minHeight > 0, "min size"), (!padding.isEmpty, "padding")]
                    .first { $0.0 }?.1 ?? "the box"
                throw ImagingError(
                    .limitExceeded, "\(cause): the result would be \(result), over the limit of \(self.limits.lowering(limits).maxPixels) pixels")
            }
        }
    }

    /// The largest result the box allows: the box times the zoom (at least the minimum sides),
    /// with the padding around it; a side left to the aspect ratio counts as 1 here; no side longer
    /// than the longest allowed (`Limits.maxResultSide`).
    var largestResult: PixelSize {
        let box = self.box
        var width = max(ImageRecipe.scaled(max(1, box.width), zoomX), scaled(minWidth)) + scaled(padding.left) + scaled(padding.right)
        var height = max(ImageRecipe.scaled(max(1, box.height), zoomY), scaled(minHeight)) + scaled(padding.top) + scaled(padding.bottom)
        if let side = self.limits.maxResultSide { (width, height) = (min(width, side), min(height, side)) }
        return PixelSize(width: width, height: height)
    }

    static func scaled(_ side: Int, _ factor: Double) -> Int {
        let product = (Double(side) * factor).rounded()
        return product >= 1e15 ? Int(1e15) : Int(product)
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

extension ImageRecipe {
    /// The autoquality and best-format settings checked: the target in its method's range, the
    /// qualities 1–100 with min at most max for every format, a method the format can use
    /// (`.invalidArgument` for `aq` with a format that has no quality: PNG, GIF, ...).
    func validateSearch() throws(ImagingError) {
        if let best = bestFormat {
            try Self.check(best.complexityThreshold, in: Ranges.complexityThreshold, "best format complexity threshold")
            if best.maxPixels < 0 { throw ImagingError(.invalidArgument, "best format max resolution must be at least 0, got \(best.maxPixels)") }
        }
        guard let autoQuality, autoQuality.isOn else { return }
        if let format, !Self.searchableFormats.contains(format) {
            throw ImagingError(.invalidArgument, "autoquality: \(format.rawValue) has no quality to choose (it works with jpeg, webp, avif, heic, jxl)")
        }
        switch autoQuality.method {
        case .size:
            guard let target = autoQuality.target else { throw ImagingError(.invalidArgument, "autoquality target: the size method needs a size in bytes") }
            try Self.check(target, in: Ranges.autoQualityBytes, "autoquality target (bytes)")
        case .ssimulacra2:
            try Self.check(autoQuality.effectiveTarget, in: Ranges.autoQualityScore, "autoquality target (SSIMULACRA2 score)")
            try Self.check(autoQuality.effectiveAllowedError, in: Ranges.autoQualityError, "autoquality allowed error")
        case .none:
            break
        }
        if autoQuality.maxPixels < 0 { throw ImagingError(.invalidArgument, "autoquality max resolution must be at least 0, got \(autoQuality.maxPixels)") }
        for format in Self.searchableFormats.sorted(by: { $0.rawValue < $1.rawValue }) {
            let (low, high) = autoQuality.qualities(for: format)
            try Self.check(low, in: Ranges.quality, "autoquality min quality")
            try Self.check(high, in: Ranges.quality, "autoquality max quality")
            guard low <= high else {
                throw ImagingError(.invalidArgument, "autoquality min quality \(low) is above max quality \(high) (for \(format.rawValue))")
            }
        }
    }
}
