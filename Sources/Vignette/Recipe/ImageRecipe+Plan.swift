/// The pipeline's work for a recipe (`ImageRecipe.plan(limits:)`): the thumbnail to make and the
/// processors to run after it, in order.
package struct RecipePlan: Sendable {
    /// The thumbnail: the box (a side may be 0) with dpr, the canvas after it and the longest side
    /// allowed, turned back for a quarter turn, with a fill's anchor turned and mirrored back the
    /// same way.
    public var thumbnail: ThumbnailOptions
    /// The steps after the thumbnail: rotate, flip, flop, sharpen, flatten, extend (those asked for).
    public var processors: [any ImageProcessing]
    /// Whether the thumbnail is turned by a quarter turn after it is made.
    public var turnsBox: Bool
    /// A turn by an angle that is not a multiple of 90, made after the resize (0 for none).
    public var angle: Double = 0
    /// Whether the source is decoded whole (a trim or a crop comes before the resize): then the
    /// thumbnail is made by a processor (`ImageProcessors.Thumbnail`) after them, not on load.
    public var decodesWhole = false

    /// The size of the result of a source whose header is `info`, worked out from the header
    /// alone (`Thumbnailer.resultSize(for:)`: the thumbnail, extended and padded), turned by a
    /// quarter turn, or by `angle` (`Image.rotatedSize`) before the canvas is added.
    public func outputSize(for info: ImageInfo) -> PixelSize {
        turned { Thumbnailer(options: $0).resultSize(for: info) }
    }

    /// `outputSize(for:)` of a source whose size, once upright, is `source`.
    public func outputSize(forUpright source: PixelSize) -> PixelSize {
        turned { Thumbnailer(options: $0).resultSize(forUpright: source) }
    }

    /// The size `result` gives for the thumbnail, turned. For a turn by an angle the canvas comes
    /// after the turn: padding adds what it adds to the unturned thumbnail; an extended canvas is
    /// at least what it is unturned.
    private func turned(_ result: (ThumbnailOptions) -> PixelSize) -> PixelSize {
        let whole = result(thumbnail)
        guard angle != 0 else { return turnsBox ? PixelSize(width: whole.height, height: whole.width) : whole }
        var bare = thumbnail
        bare.canvas = ResultCanvas()
        let output = result(bare)
        let rotated = Image.rotatedSize(output, degrees: angle)
        if thumbnail.canvas.extendsToBox || thumbnail.canvas.extendsToAspectRatio {
            return PixelSize(width: max(rotated.width, whole.width), height: max(rotated.height, whole.height))
        }
        return PixelSize(width: rotated.width + whole.width - output.width, height: rotated.height + whole.height - output.height)
    }

    /// The thumbnail the request makes as it loads the source: none when it is decoded whole.
    var thumbnailOnLoad: ThumbnailOptions? { decodesWhole ? nil : thumbnail }
}

extension ImageRecipe {
    /// The format and size of the result `plan` (this recipe's) and `encoding` make of an input
    /// whose header is `info`, worked out from the header alone, to name an output before anything
    /// is decoded: an animation kept whole in `encoding`'s animated format (decoded whole or not)
    /// (`OutputEncoding.animatedFormat(for:thumbnail:)`), else the format this recipe writes for
    /// an image with or without alpha; the size `RecipePlan.outputSize(for:)` says.
    package func expectedOutput(for info: ImageInfo, plan: RecipePlan, encoding: OutputEncoding) -> (format: ImageFormat, size: PixelSize) {
        let animated = encoding.animatedFormat(for: info, thumbnail: plan.thumbnail)
        let size = plan.outputSize(for: info)
        return (animated?.format ?? outputFormat(hasAlpha: info.hasAlpha), size)
    }
}

extension ImageRecipe {
    /// The thumbnail and processors that make this recipe's result, once `validate(limits:)` has
    /// passed (its errors are thrown as they are).
    ///
    /// The result is the one imgproxy gives by turning and mirroring the image before resizing it:
    /// the thumbnail is made in the box turned back (and a fill keeps the window that ends up at
    /// the anchor asked for), then turned and mirrored, which is cheaper on the small image.
    package func plan(limits: DecodingLimits = .untrusted, watermark: WatermarkImage? = nil) throws(ImagingError) -> RecipePlan {
        try validate(limits: limits)
        let fit: ThumbnailOptions.Fit
        switch resizingType {
        case .fit: fit = .inside
        case .fill, .fillDown: fit = .cover
        case .auto: fit = .auto
        case .force: fit = .fill
        }
        // The box before dpr: the thumbnail works out what dpr, the canvas after it and the longest
        // side allowed make of it once the source's size is known, as imgproxy does.
        var options = ThumbnailOptions(width: width, height: height, fit: fit, crop: gravity, allowUpscaling: enlarge, autoOrient: autoRotate)
        options.allowsZeroSides = true
        options.dpr = dpr
        options.zoomX = zoomX
        options.zoomY = zoomY
        options.minWidth = minWidth
        options.minHeight = minHeight
        options.keepsBoxAspect = resizingType == .fillDown
        options.cropPosition = gravityPosition
        options.canvas.extendsToBox = extend
        options.canvas.extendsToAspectRatio = extendAspectRatio
        options.canvas.padding = padding
        options.maxResultSide = self.limits.maxResultSide ?? 0
        var thumbnail = turned(options)
        thumbnail.blurSigma = blur
        thumbnail.keepProfile = !stripColourProfile
        thumbnail.frames = frames
        thumbnail.page = page
        thumbnail.videoSecond = videoSecond
        var plan = RecipePlan(thumbnail: thumbnail, processors: processors(watermark: watermark), turnsBox: turnsBox)
        if turnsByAngle { plan.angle = rotation }
        if trim != nil || crop != nil {
            plan.decodesWhole = true
            plan.processors = beforeResize(thumbnail) + [ImageProcessors.Thumbnail(options: thumbnail)] + plan.processors
        }
        return plan
    }

    /// The pipeline request for `source`: the plan's thumbnail and processors, and the cache
    /// buster in the image id (so every cache, every coalescing of equal work and the ETag tell
    /// it apart from the same image under another cache buster).
    public func request(
        for source: ImageRequest.Source, imageID: String? = nil, limits: DecodingLimits = .untrusted, watermark: WatermarkImage? = nil
    ) throws(ImagingError) -> ImageRequest {
        let plan = try plan(limits: limits, watermark: watermark)
        var request = ImageRequest(
            source: source, imageID: imageID, processors: plan.processors, thumbnail: plan.thumbnailOnLoad)
        if plan.decodesWhole { request.picture = SourcePicture(page: page, videoSecond: videoSecond) }
        if let cacheBuster { request.imageID = request.effectiveImageID + "#cachebuster=" + cacheBuster }
        if !self.limits.isEmpty {
            // Lower limits may refuse what others' work made: their own id keeps them apart.
            request.decodingLimits = self.limits.lowering(limits)
            let own = [self.limits.maxSourcePixels, self.limits.maxSourceBytes, self.limits.maxFrames, self.limits.maxFramePixels]
            request.imageID = request.effectiveImageID + "#limits=" + own.map { $0.map(String.init) ?? "-" }.joined(separator: ",")
        }
        return request
    }

    /// The steps on the whole upright source before the thumbnail: the EXIF orientation (taken
    /// off the thumbnail's own settings), the trim, then the crop, its size and anchor turned back
    /// for a quarter turn and the mirrors as the resize's are.
    func beforeResize(_ thumbnail: ThumbnailOptions) -> [any ImageProcessing] {
        var steps: [any ImageProcessing] = []
        if autoRotate { steps.append(ImageProcessors.AutoOrient()) }
        if let trim {
            steps.append(ImageProcessors.Trim(
                threshold: trim.threshold, colour: trim.colour, equalHorizontal: trim.equalHorizontal, equalVertical: trim.equalVertical))
        }
        if let crop {
            var anchored = ThumbnailOptions(width: 1, height: 1, fit: .cover, crop: crop.gravity ?? gravity)
            anchored.cropPosition = crop.gravity == nil ? gravityPosition : crop.position
            anchored = turned(anchored)
            let (width, height) = turnsBox ? (crop.height, crop.width) : (crop.width, crop.height)
            steps.append(ImageProcessors.Region(width: width, height: height, anchor: anchored.crop, position: anchored.cropPosition))
        }
        return steps
    }

    /// The box × `dpr`, each side to the nearest pixel (at least 1; a side of 0 stays 0).
    public var box: PixelSize { PixelSize(width: scaled(width), height: scaled(height)) }

    func scaled(_ side: Int) -> Int {
        guard side > 0, dpr.isFinite, dpr > 0 else { return side }
        let product = (Double(side) * dpr).rounded()
        return max(1, product >= 1e15 ? Int(1e15) : Int(product))
    }

    /// Clockwise quarter turns, 0–3; 0 for an angle that is not a multiple of 90 (`turnsByAngle`).
    var quarterTurns: Int { Image.quarterTurns(rotation) ?? 0 }

    /// Whether the rotation is by an angle that is not a multiple of 90: the thumbnail is turned
    /// onto a larger canvas after the resize, the box is not turned.
    var turnsByAngle: Bool { Image.quarterTurns(rotation) == nil }

    /// Whether the rotation is a quarter turn: the box is turned for the resize.
    var turnsBox: Bool { quarterTurns % 2 == 1 }

    /// `options` for the resize before the turn and mirrors: the box turned back for a quarter
    /// turn, and a fill's anchor moved to where the turn and mirrors take it from (so that
    /// `north` keeps the top of the result).
    func turned(_ options: ThumbnailOptions) -> ThumbnailOptions {
        var turned = options
        if turnsBox {
            (turned.width, turned.height) = (options.height, options.width)
            (turned.minWidth, turned.minHeight) = (options.minHeight, options.minWidth)
            (turned.zoomX, turned.zoomY) = (options.zoomY, options.zoomX)
            let sides = options.canvas.padding
            turned.canvas.padding = ResultCanvas.Padding(top: sides.left, right: sides.top, bottom: sides.right, left: sides.bottom)
        }
        if let position = Self.position(of: options.crop) {
            // The result is flop(flip(rotate(thumbnail))): undo them in the reverse order.
            var (x, y) = position
            if flipHorizontally { x = 2 - x }
            if flipVertically { y = 2 - y }
            for _ in 0..<quarterTurns { (x, y) = (y, 2 - x) }  // one clockwise turn undone
            turned.crop = Self.anchor(x: x, y: y)
            turned.cropPosition = options.cropPosition.map { turnedBack($0, anchoredAt: position) }
        }
        return turned
    }

    /// `position` moved back through the mirrors and the turn as `turned(_:)` moves its anchor at
    /// `anchor`: a focus point is a point of the image; offsets are taken as displacements (inward
    /// from an anchored edge, forward from the middle), turned, then read against the new anchor.
    func turnedBack(_ position: CropPosition, anchoredAt anchor: (x: Int, y: Int)) -> CropPosition {
        if position.isFocusPoint {
            var (x, y) = (position.x, position.y)
            if flipHorizontally { x = 1 - x }
            if flipVertically { y = 1 - y }
            for _ in 0..<quarterTurns { (x, y) = (y, 1 - x) }
            return CropPosition(x: x, y: y, isFocusPoint: true)
        }
        // Displacement towards +x (right) and +y (down) in the result.
        var (ax, ay) = anchor
        var dx = ax == 2 ? -position.x : position.x, dy = ay == 2 ? -position.y : position.y
        if flipHorizontally { (ax, dx) = (2 - ax, -dx) }
        if flipVertically { (ay, dy) = (2 - ay, -dy) }
        for _ in 0..<quarterTurns { (ax, ay, dx, dy) = (ay, 2 - ax, dy, -dx) }
        return CropPosition(x: ax == 2 ? -dx : dx, y: ay == 2 ? -dy : dy)
    }

    /// The processors after the thumbnail, in imgproxy's order: rotate, flip, flop, sharpen,
    /// pixelate, flatten onto `background`, `extend` to the box (a side of 0 keeps the image's),
    /// `extendAspectRatio` to the box's aspect ratio, and the padding.
    func processors(watermark image: WatermarkImage? = nil) -> [any ImageProcessing] {
        var processors: [any ImageProcessing] = []
        if quarterTurns != 0 { processors.append(ImageProcessors.Rotate(degrees: quarterTurns * 90)) }
        if turnsByAngle { processors.append(ImageProcessors.RotateByAngle(degrees: rotation, background: background)) }
        if flipVertically { processors.append(ImageProcessors.Flip(horizontally: false)) }
        if flipHorizontally { processors.append(ImageProcessors.Flip(horizontally: true)) }
        if sharpen > 0 { processors.append(ImageProcessors.Sharpen(sigma: sharpen)) }
        if pixelate > 1 { processors.append(ImageProcessors.Pixelate(size: pixelate)) }
        let fill: (red: Double, green: Double, blue: Double) = background?.channels ?? (0, 0, 0)
        if background != nil { processors.append(ImageProcessors.Flatten(red: fill.red, green: fill.green, blue: fill.blue)) }
        // The canvas in pixels before dpr, multiplied by the dpr the thumbnail says applied.
        let scaling = ImageProcessors.Extend.Scaling(zoomX: zoomX, zoomY: zoomY, fallback: dpr)
        func extended(_ canvas: ImageProcessors.Extend.Canvas, at gravity: Gravity) -> ImageProcessors.Extend {
            var step = ImageProcessors.Extend(canvas: canvas, gravity: gravity, red: fill.red, green: fill.green, blue: fill.blue)
            step.scaling = scaling
            return step
        }
        if extend, width > 0 || height > 0 {
            processors.append(extended(.box(width: width, height: height), at: extendGravity))
        }
        if extendAspectRatio, width > 0, height > 0 {
            processors.append(extended(.aspectRatio(width: width, height: height), at: extendAspectRatioGravity))
        }
        if !padding.isEmpty {
            processors.append(extended(.padding(top: padding.top, right: padding.right, bottom: padding.bottom, left: padding.left), at: .centre))
        }
        // Without a configured watermark image the option does nothing (as in imgproxy).
        if let watermark, let image, watermark.opacity > 0 {
            let placement: ImageProcessors.Watermark.Placement
            if let anchor = watermark.anchor {
                placement = .anchored(anchor, watermark.x == 0 && watermark.y == 0 ? nil : CropPosition(x: watermark.x, y: watermark.y))
            } else {
                placement = .tiled(spacingX: watermark.x, spacingY: watermark.y)
            }
            processors.append(ImageProcessors.Watermark(
                overlay: image.image, overlayID: image.id, opacity: watermark.opacity, placement: placement, scale: watermark.scale, dpr: dpr))
        }
        return processors
    }

    /// A positional anchor as (x, y), each 0 (left, top), 1 (middle) or 2 (right, bottom): its
    /// `Gravity.position` doubled; nil for `attention`, which follows the content wherever it is.
    static func position(of anchor: Gravity) -> (x: Int, y: Int)? {
        anchor.position.map { (Int($0.x * 2), Int($0.y * 2)) }
    }

    /// The anchor at (x, y), each 0, 1 or 2 (see `position(of:)`).
    static func anchor(x: Int, y: Int) -> Gravity {
        Gravity.allCases.first { position(of: $0).map { $0 == (x, y) } ?? false } ?? .centre
    }
}
