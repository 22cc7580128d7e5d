/// The sizes a thumbnail goes through, worked out from the upright source size alone, as imgproxy
/// works them out: the scale of the fit (a side of the box the image lacks follows its aspect
/// ratio), times the zoom, never above 1 unless upscaling, raised to reach the minimum sides; then
/// the crop of the resized image to the result (the box, or for `keepsBoxAspect` the box's aspect
/// ratio when the image is too small).
struct ThumbnailGeometry: Equatable {
    /// The size the image is resized to (before the crop to the result).
    let resized: PixelSize
    /// The final size.
    let output: PixelSize
    /// The fit that applies to this source: `options.fit`, with `auto` decided (cover or inside).
    let fit: ThumbnailOptions.Fit

    init(source: PixelSize, options: ThumbnailOptions) {
        let w = Double(source.width), h = Double(source.height)
        let tw = Double(options.width), th = Double(options.height)
        var fit = options.fit
        if fit == .auto {
            // Both landscape (or square) or both portrait: cover; otherwise inside.
            fit = (w >= h) == (tw >= th) ? .cover : .inside
        }
        self.fit = fit
        // Shrink factors (source / result) across and down.
        var shrinkX = w / tw, shrinkY = h / th
        switch fit {
        case .inside, .auto: (shrinkX, shrinkY) = (max(shrinkX, shrinkY), max(shrinkX, shrinkY))
        case .cover: (shrinkX, shrinkY) = (min(shrinkX, shrinkY), min(shrinkX, shrinkY))
        case .fill: break
        }
        shrinkX /= options.zoomX
        shrinkY /= options.zoomY
        if !options.allowUpscaling, min(shrinkX, shrinkY) < 1 {
            // Never enlarged: the smaller factor becomes 1, the other keeps its proportion.
            let smallest = min(shrinkX, shrinkY)
            shrinkX /= smallest
            shrinkY /= smallest
        }
        if options.minWidth > 0, w / Double(options.minWidth) < shrinkX {
            let reach = w / Double(options.minWidth)
            shrinkY /= shrinkX / reach
            shrinkX = reach
        }
        if options.minHeight > 0, h / Double(options.minHeight) < shrinkY {
            let reach = h / Double(options.minHeight)
            shrinkX /= shrinkY / reach
            shrinkY = reach
        }
        shrinkX = min(shrinkX, w)
        shrinkY = min(shrinkY, h)
        func scaled(_ length: Double, _ shrink: Double) -> Int { max(1, Int((length / shrink).rounded())) }
        let resized = PixelSize(width: scaled(w, shrinkX), height: scaled(h, shrinkY))
        self.resized = resized

        // The crop to the result: the box times the zoom, or its aspect ratio for a small image.
        var target = PixelSize(width: Self.scaled(options.width, options.zoomX), height: Self.scaled(options.height, options.zoomY))
        if options.keepsBoxAspect, fit == .cover, !options.allowUpscaling {
            let gainX = Double(target.width) / Double(resized.width), gainY = Double(target.height) / Double(resized.height)
            if gainX > gainY, gainX > 1 {
                target = PixelSize(width: resized.width, height: Self.scaled(resized.width, Double(target.height) / Double(target.width)))
            } else if gainY > gainX, gainY > 1 {
                target = PixelSize(width: Self.scaled(resized.height, Double(target.width) / Double(target.height)), height: resized.height)
            }
        }
        output = PixelSize(width: min(resized.width, max(1, target.width)), height: min(resized.height, max(1, target.height)))
    }

    /// No resize: `whole` cropped to `size` (each side at most `whole`'s).
    init(whole: PixelSize, croppedTo size: PixelSize) {
        fit = .cover
        resized = whole
        output = PixelSize(width: min(size.width, whole.width), height: min(size.height, whole.height))
    }

    /// Whether the resized image is cropped to the result.
    var crops: Bool { output != resized }

    /// `length` × `factor`, rounded; 0 stays 0.
    static func scaled(_ length: Int, _ factor: Double) -> Int {
        length == 0 ? 0 : Int(min(1e9, (Double(length) * factor).rounded()))
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
