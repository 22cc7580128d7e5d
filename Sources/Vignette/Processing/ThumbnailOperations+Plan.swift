/// What a request needs to apply `ThumbnailOperations` to a thumbnail: the thumbnail to make and
/// the processors to run after it, in order (see `ThumbnailOperations.plan(for:)`).
public struct ThumbnailPlan: Sendable {
    /// The thumbnail to make: the box × dpr, turned back for a quarter turn, with the cover crop's
    /// anchor turned and mirrored back the same way.
    public var thumbnail: ThumbnailOptions
    /// The steps after the thumbnail: rotate, flip, flop, sharpen, flatten, extend (those asked for).
    public var processors: [any ImageProcessing]
    /// The box × dpr: what the result fits and what `extend` pads to.
    public var box: PixelSize
    /// The operations planned.
    public var operations: ThumbnailOperations

    /// The size of the result when the thumbnail made is `size` (as `Thumbnailer.outputSize(for:)`
    /// says from a header): the box under `extend`, else `size`, turned by a quarter turn.
    public func outputSize(forThumbnailOf size: PixelSize) -> PixelSize {
        if operations.extend { return box }
        return operations.turnsBox ? PixelSize(width: size.height, height: size.width) : size
    }
}

extension ThumbnailOperations {
    /// The thumbnail and processors for `options`' box: validates, then multiplies the box by
    /// `dpr` (`scaled(_:)`), turns it back for the resize (`turned(_:)`), and lists the processors
    /// (`processors(extendingTo:)`). Throws `.invalidArgument` as `validate()` does.
    public func plan(for options: ThumbnailOptions) throws(ImagingError) -> ThumbnailPlan {
        try validate()
        let box = PixelSize(width: scaled(options.width), height: scaled(options.height))
        var thumbnail = options
        thumbnail.width = box.width
        thumbnail.height = box.height
        return ThumbnailPlan(thumbnail: turned(thumbnail), processors: processors(extendingTo: box), box: box, operations: self)
    }

    /// `side` × `dpr`, to the nearest pixel: a side above 0 stays at least 1, 0 (a side left to
    /// the aspect ratio, as imgproxy's URLs have it) stays 0. A `dpr` that `validate()` refuses
    /// leaves the side as it is.
    public func scaled(_ side: Int) -> Int {
        guard side > 0, dpr.isFinite, dpr > 0 else { return side }
        let product = (Double(side) * dpr).rounded()
        return max(1, product >= 1e15 ? Int(1e15) : Int(product))
    }

    /// Clockwise quarter turns, 0–3.
    var quarterTurns: Int { ((rotation / 90) % 4 + 4) % 4 }

    /// Whether the rotation is a quarter turn (90 or 270 degrees): the box is turned for the resize
    /// and the result's sides are swapped.
    public var turnsBox: Bool { quarterTurns % 2 == 1 }

    /// `options` for the resize that comes before the turn and mirrors: the box turned back for a
    /// quarter turn, and a cover crop's anchor moved to where the turn and mirrors will take it
    /// from (so that `north` keeps the top of the result). Other settings are kept.
    public func turned(_ options: ThumbnailOptions) -> ThumbnailOptions {
        var turned = options
        if turnsBox { (turned.width, turned.height) = (options.height, options.width) }
        if let position = Self.position(of: options.crop) {
            // The result is flop(flip(rotate(thumbnail))): undo them in the reverse order.
            var (x, y) = position
            if flop { x = 2 - x }
            if flip { y = 2 - y }
            for _ in 0..<quarterTurns { (x, y) = (y, 2 - x) }  // one clockwise turn undone
            turned.crop = Self.anchor(x: x, y: y)
        }
        return turned
    }

    /// The processors that follow the thumbnail, in order: rotate, flip, flop, sharpen, flatten
    /// onto `background`, and with `extend` a padding to `box` (when there is one; imgproxy's
    /// URLs may leave a side to the aspect ratio).
    public func processors(extendingTo box: PixelSize?) -> [any ImageProcessing] {
        var processors: [any ImageProcessing] = []
        if quarterTurns != 0 { processors.append(ImageProcessors.Rotate(degrees: quarterTurns * 90)) }
        if flip { processors.append(ImageProcessors.Flip(horizontally: false)) }
        if flop { processors.append(ImageProcessors.Flip(horizontally: true)) }
        if sharpenSigma > 0 { processors.append(ImageProcessors.Sharpen(sigma: sharpenSigma)) }
        let fill: (red: Double, green: Double, blue: Double) =
            background.map { (Double($0.red), Double($0.green), Double($0.blue)) } ?? (0, 0, 0)
        if background != nil { processors.append(ImageProcessors.Flatten(red: fill.red, green: fill.green, blue: fill.blue)) }
        if extend, let box, box.width > 0, box.height > 0 {
            processors.append(ImageProcessors.Extend(
                width: box.width, height: box.height, gravity: extendGravity, red: fill.red, green: fill.green, blue: fill.blue))
        }
        return processors
    }

    /// A positional anchor as (x, y), each 0 (left, top), 1 (middle) or 2 (right, bottom); nil for
    /// `attention`, which follows the content wherever it is.
    static func position(of anchor: CropAnchor) -> (x: Int, y: Int)? {
        switch anchor {
        case .attention: nil
        case .centre: (1, 1)
        case .north: (1, 0)
        case .south: (1, 2)
        case .east: (2, 1)
        case .west: (0, 1)
        case .northEast: (2, 0)
        case .northWest: (0, 0)
        case .southEast: (2, 2)
        case .southWest: (0, 2)
        }
    }

    /// The anchor at (x, y), each 0, 1 or 2 (see `position(of:)`).
    static func anchor(x: Int, y: Int) -> CropAnchor {
        switch (x, y) {
        case (1, 0): .north
        case (1, 2): .south
        case (2, 1): .east
        case (0, 1): .west
        case (2, 0): .northEast
        case (0, 0): .northWest
        case (2, 2): .southEast
        case (0, 2): .southWest
        default: .centre
        }
    }
}
