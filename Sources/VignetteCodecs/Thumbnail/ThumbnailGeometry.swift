/// The sizes a thumbnail goes through, worked out from the upright source size alone.
struct ThumbnailGeometry: Equatable {
    /// The size the image is resized to (before a `cover` crop).
    let resized: PixelSize
    /// The final size.
    let output: PixelSize
    /// The fit that applies to this source: `options.fit`, with `auto` decided (cover or inside).
    let fit: ThumbnailOptions.Fit

    init(source: PixelSize, options: ThumbnailOptions) {
        var fit = options.fit
        if fit == .auto {
            let sourceLandscape = source.width >= source.height, boxLandscape = options.width >= options.height
            let square = source.width == source.height || options.width == options.height
            fit = square || sourceLandscape == boxLandscape ? .cover : .inside
        }
        self.fit = fit
        let w = Double(source.width)
        let h = Double(source.height)
        let tw = Double(options.width)
        let th = Double(options.height)
        func limited(_ scale: Double) -> Double { options.allowUpscaling ? scale : min(scale, 1) }
        func scaled(_ length: Double, _ scale: Double) -> Int { max(1, Int((length * scale).rounded())) }
        switch fit {
        case .inside, .auto:
            let s = limited(min(tw / w, th / h))
            resized = PixelSize(width: scaled(w, s), height: scaled(h, s))
            output = resized
        case .cover:
            let s = limited(max(tw / w, th / h))
            resized = PixelSize(width: scaled(w, s), height: scaled(h, s))
            output = PixelSize(width: min(options.width, resized.width), height: min(options.height, resized.height))
        case .fill:
            resized = PixelSize(width: scaled(w, limited(tw / w)), height: scaled(h, limited(th / h)))
            output = resized
        }
    }

    /// Whether `candidate` has `reference`'s aspect ratio, within 2 %.
    static func sameAspect(_ candidate: PixelSize, _ reference: PixelSize) -> Bool {
        let a = Double(candidate.width) / Double(candidate.height)
        let b = Double(reference.width) / Double(reference.height)
        return abs(a - b) / b < 0.02
    }
}

extension PixelSize {
    /// Width and height swapped when `orientation` is 5–8 (a transposing orientation).
    func oriented(_ orientation: Int) -> PixelSize {
        orientation >= 5 ? PixelSize(width: height, height: width) : self
    }

    func covers(_ other: PixelSize) -> Bool { width >= other.width && height >= other.height }
}
