/// The sizes a thumbnail goes through, worked out from the upright source size alone, as imgproxy
/// works them out (its `calcScale`, `calcSizes` and `limitScale`): the scale of the fit (a side of
/// the box that is 0 follows the other's scale, or for `fill` stays as it is), times the zoom,
/// never above 1 unless upscaling, raised to reach the minimum sides, times the device pixel ratio
/// (lowered to what the source allows); then the crop of the resized image to the result (the box,
/// or for `keepsBoxAspect` the box's aspect ratio when the image is too small); then, when the
/// whole result (canvas and padding included) is longer than `maxResultSide`, every scale shrunk
/// in proportion and the sizes worked out again.
struct ThumbnailGeometry: Equatable {
    /// The size the image is resized to (before the crop to the result).
    let resized: PixelSize
    /// The thumbnail's final size (after the crop to the result).
    let output: PixelSize
    /// The fit that applies to this source: `options.fit`, with `auto` decided (cover or inside).
    let fit: ThumbnailOptions.Fit
    /// The device pixel ratio as it applies to this source (imgproxy's `DprScale`): what the
    /// extend canvas, the padding and pixel offsets are multiplied by.
    let dprScale: Double
    /// The whole result: `output` extended and padded as `options.canvas` says.
    let result: PixelSize

    init(source: PixelSize, options: ThumbnailOptions) {
        let w = Double(source.width), h = Double(source.height)
        var fit = options.fit
        // The box's sides; 0 (with `allowsZeroSides`) is the source's.
        let tw = options.width == 0 ? w : Double(options.width), th = options.height == 0 ? h : Double(options.height)
        if fit == .auto {
            // Both landscape (or square) or both portrait: cover; otherwise inside.
            fit = (w >= h) == (tw >= th) ? .cover : .inside
        }
        self.fit = fit
        // Shrink factors (source / result) across and down.
        var shrinkX = w / tw, shrinkY = h / th
        if shrinkX != 1 || shrinkY != 1 {
            switch fit {
            case _ where options.width == 0 && fit != .fill: shrinkX = shrinkY
            case _ where options.height == 0 && fit != .fill: shrinkY = shrinkX
            case .inside, .auto: (shrinkX, shrinkY) = (max(shrinkX, shrinkY), max(shrinkX, shrinkY))
            case .cover: (shrinkX, shrinkY) = (min(shrinkX, shrinkY), min(shrinkX, shrinkY))
            case .fill: break
            }
        }
        shrinkX /= options.zoomX
        shrinkY /= options.zoomY
        var dprScale = options.dpr
        if !options.allowUpscaling {
            let smallest = min(shrinkX, shrinkY)
            if smallest < 1 {
                // Never enlarged: the smaller factor becomes 1, the other keeps its proportion;
                // the device pixel ratio makes up for it, unless the result is extended to the box.
                shrinkX /= smallest
                shrinkY /= smallest
                if !options.canvas.extendsToBox { dprScale /= smallest }
            }
            // The most the device pixel ratio may give without enlarging.
            dprScale = min(dprScale, min(shrinkX, shrinkY))
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
        shrinkX = min(shrinkX / dprScale, w)
        shrinkY = min(shrinkY / dprScale, h)
        var sizes = Sizes(source: source, scaleX: 1 / shrinkX, scaleY: 1 / shrinkY, dprScale: dprScale, fit: fit, options: options)
        if options.maxResultSide > 0 {
            let whole = sizes.limited
            if whole.width > options.maxResultSide || whole.height > options.maxResultSide {
                let down = Double(options.maxResultSide) / Double(max(whole.width, whole.height))
                // Never below one pixel a side.
                sizes = Sizes(
                    source: source, scaleX: max(sizes.scaleX * down, 1 / w), scaleY: max(sizes.scaleY * down, 1 / h),
                    dprScale: dprScale * down, fit: fit, options: options)
            }
        }
        resized = sizes.resized
        output = sizes.output
        self.dprScale = sizes.dprScale
        result = sizes.result
    }

    /// No resize: `whole` cropped to `size` (each side at most `whole`'s).
    init(whole: PixelSize, croppedTo size: PixelSize) {
        fit = .cover
        resized = whole
        output = PixelSize(width: min(size.width, whole.width), height: min(size.height, whole.height))
        dprScale = 1
        result = output
    }

    /// Whether the resized image is cropped to the result.
    var crops: Bool { output != resized }

    /// `length` × `factor`, rounded; 0 stays 0.
    static func scaled(_ length: Int, _ factor: Double) -> Int {
        length == 0 ? 0 : Int(min(1e9, (Double(length) * factor).rounded()))
    }

    /// `length` × `factor`, rounded half to even (imgproxy's padding); 0 stays 0.
    static func scaledToEven(_ length: Int, _ factor: Double) -> Int {
        length == 0 ? 0 : Int(min(1e9, (Double(length) * factor).rounded(.toNearestOrEven)))
    }

    /// `a`, or `b` when `a` is 0; the smaller when neither is.
    static func smallerNonZero(_ a: Int, _ b: Int) -> Int { a == 0 ? b : b == 0 ? a : min(a, b) }

    /// Whether `candidate` has `reference`'s aspect ratio, within 2 %.
    static func sameAspect(_ candidate: PixelSize, _ reference: PixelSize) -> Bool {
        let a = Double(candidate.width) / Double(candidate.height)
        let b = Double(reference.width) / Double(reference.height)
        return abs(a - b) / b < 0.02
    }
}

extension ThumbnailGeometry {
    /// The sizes that follow from the scales (imgproxy's `calcSizes`).
    struct Sizes {
        let scaleX: Double, scaleY: Double, dprScale: Double
        /// The box times the device pixel ratio and the zoom (a side may be 0): what the result is
        /// cropped to and extended to.
        let target: PixelSize
        let resized: PixelSize
        /// The crop to the result; a side of 0 is not cropped.
        let crop: PixelSize
        /// The canvas of the box's aspect ratio, when `extendsToAspectRatio` changes the shape.
        let aspectCanvas: PixelSize?
        let padding: ResultCanvas.Padding

        init(source: PixelSize, scaleX: Double, scaleY: Double, dprScale: Double, fit: ThumbnailOptions.Fit, options: ThumbnailOptions) {
            (self.scaleX, self.scaleY, self.dprScale) = (scaleX, scaleY, dprScale)
            target = PixelSize(
                width: ThumbnailGeometry.scaled(options.width, dprScale * options.zoomX),
                height: ThumbnailGeometry.scaled(options.height, dprScale * options.zoomY))
            resized = PixelSize(
                width: max(1, ThumbnailGeometry.scaled(source.width, scaleX)), height: max(1, ThumbnailGeometry.scaled(source.height, scaleY)))
            var crop = target
            if options.keepsBoxAspect, fit == .cover, !options.allowUpscaling {
                // fill-down: an image too small for the box keeps the box's aspect ratio.
                let gainX = Double(target.width) / Double(resized.width), gainY = Double(target.height) / Double(resized.height)
                if gainX > gainY, gainX > 1 {
                    crop = PixelSize(width: resized.width, height: ThumbnailGeometry.scaled(resized.width, Double(target.height) / Double(target.width)))
                } else if gainY > gainX, gainY > 1 {
                    crop = PixelSize(width: ThumbnailGeometry.scaled(resized.height, Double(target.width) / Double(target.height)), height: resized.height)
                }
            }
            self.crop = crop
            var aspectCanvas: PixelSize?
            if options.canvas.extendsToAspectRatio, target.width > 0, target.height > 0 {
                let out = PixelSize(
                    width: ThumbnailGeometry.smallerNonZero(resized.width, crop.width),
                    height: ThumbnailGeometry.smallerNonZero(resized.height, crop.height))
                let gainX = Double(target.width) / Double(out.width), gainY = Double(target.height) / Double(out.height)
                if gainY > gainX {
                    aspectCanvas = PixelSize(width: out.width, height: ThumbnailGeometry.scaled(out.width, Double(target.height) / Double(target.width)))
                } else if gainX > gainY {
                    aspectCanvas = PixelSize(width: ThumbnailGeometry.scaled(out.height, Double(target.width) / Double(target.height)), height: out.height)
                }
            }
            self.aspectCanvas = aspectCanvas
            let sides = options.canvas.padding
            padding = ResultCanvas.Padding(
                top: ThumbnailGeometry.scaledToEven(sides.top, dprScale), right: ThumbnailGeometry.scaledToEven(sides.right, dprScale),
                bottom: ThumbnailGeometry.scaledToEven(sides.bottom, dprScale), left: ThumbnailGeometry.scaledToEven(sides.left, dprScale))
            extends = options.canvas.extendsToBox
        }

        private let extends: Bool

        /// The resized image cropped to the result.
        var output: PixelSize {
            PixelSize(
                width: min(resized.width, max(1, ThumbnailGeometry.smallerNonZero(crop.width, resized.width))),
                height: min(resized.height, max(1, ThumbnailGeometry.smallerNonZero(crop.height, resized.height))))
        }

        /// What `maxResultSide` is checked against (imgproxy's `limitScale`): the crop, the extend
        /// canvas (or else the aspect ratio's), and the padding.
        var limited: PixelSize {
            var size = PixelSize(
                width: ThumbnailGeometry.smallerNonZero(resized.width, crop.width),
                height: ThumbnailGeometry.smallerNonZero(resized.height, crop.height))
            if extends {
                size = PixelSize(width: max(size.width, target.width), height: max(size.height, target.height))
            } else if let aspectCanvas {
                size = PixelSize(width: max(size.width, aspectCanvas.width), height: max(size.height, aspectCanvas.height))
            }
            return PixelSize(width: size.width + padding.left + padding.right, height: size.height + padding.top + padding.bottom)
        }

        /// The whole result: `output` extended to the box, then to the aspect ratio, then padded.
        var result: PixelSize {
            var size = output
            if extends {
                size = PixelSize(width: max(size.width, target.width), height: max(size.height, target.height))
            }
            if let aspectCanvas {
                size = PixelSize(width: max(size.width, aspectCanvas.width), height: max(size.height, aspectCanvas.height))
            }
            return PixelSize(width: size.width + padding.left + padding.right, height: size.height + padding.top + padding.bottom)
        }
    }
}

extension PixelSize {
    /// Width and height swapped when `orientation` is 5–8 (a transposing orientation).
    func oriented(_ orientation: Int) -> PixelSize {
        orientation >= 5 ? PixelSize(width: height, height: width) : self
    }

    func covers(_ other: PixelSize) -> Bool { width >= other.width && height >= other.height }
}
