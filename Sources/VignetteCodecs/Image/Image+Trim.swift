internal import CVignetteImageShims
internal import CVignetteVips

extension Image {
    /// The surrounding background cut away (`vips_find_trim`, then `vips_crop`): pixels that
    /// differ from `background` by at most `threshold` are background. Without a colour, the top
    /// left pixel's is taken, as imgproxy does. `equalHorizontal` cuts the same amount from the
    /// left and the right (the smaller of the two), `equalVertical` from the top and the bottom.
    /// An image that is background all over is returned as it is. The image is 8-bit sRGB or grey
    /// first (`standardizedToSRGB8`); alpha is flattened onto the background for the search only.
    public func trimmed(
        threshold: Double, background: (red: Double, green: Double, blue: Double)? = nil,
        equalHorizontal: Bool = false, equalVertical: Bool = false
    ) throws(ImagingError) -> Image {
        let image = try standardizedToSRGB8().materialized()
        guard let box = try image.trimBox(threshold: threshold, background: background) else { return image }
        let (x, y, w, h) = Self.equalised(box, width: image.width, height: image.height, horizontal: equalHorizontal, vertical: equalVertical)
        return try image.cropped(x: x, y: y, width: w, height: h)
    }

    /// What `trimmed(threshold:background:)` keeps, as a box (`vips_find_trim`), without the
    /// equal cuts; nil when the image is background all over. An animation's trim is the union
    /// of its frames' boxes, so that only what is background in every frame is cut.
    public func trimBox(
        threshold: Double, background: (red: Double, green: Double, blue: Double)? = nil
    ) throws(ImagingError) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard threshold.isFinite, threshold >= 0 else {
            throw ImagingError(.invalidArgument, "trim threshold must be 0 or more, got \(threshold)")
        }
        let image = try standardizedToSRGB8().materialized()
        let colour: [Double]
        if let background {
            colour = image.bands - (image.hasAlpha ? 1 : 0) == 1
                ? [(background.red + background.green + background.blue) / 3] : [background.red, background.green, background.blue]
        } else {
            colour = try image.trimColour()
        }
        let searched = image.hasAlpha
            ? try image.flattened(red: colour.first ?? 0, green: colour.count > 1 ? colour[1] : colour[0], blue: colour.last ?? 0)
            : image
        var (left, top, width, height): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let status = colour.withUnsafeBufferPointer {
            vgn_find_trim(searched.pointer, &left, &top, &width, &height, threshold, $0.baseAddress, Int32(colour.count))
        }
        guard status == 0 else { throw VipsErrors.operationError("vips_find_trim") }
        guard width > 0, height > 0 else { return nil }
        return (Int(left), Int(top), Int(width), Int(height))
    }

    /// The top left pixel's colour bands (alpha left out): the background a trim without a colour
    /// takes, as imgproxy does.
    public func trimColour() throws(ImagingError) -> [Double] {
        let image = try standardizedToSRGB8()
        let corner = try image.cropped(x: 0, y: 0, width: 1, height: 1).pixels()
        return corner.bytes.prefix(corner.bands - (image.hasAlpha ? 1 : 0)).map(Double.init)
    }

    /// `box` in an image of `width` × `height` with the left and right cuts made equal (the
    /// smaller of the two) when `horizontal`, the top and bottom ones when `vertical`.
    public static func equalised(
        _ box: (x: Int, y: Int, width: Int, height: Int), width: Int, height: Int, horizontal: Bool, vertical: Bool
    ) -> (x: Int, y: Int, width: Int, height: Int) {
        var (x, y, w, h) = box
        if horizontal {
            let cut = min(x, width - x - w)
            (x, w) = (cut, width - 2 * cut)
        }
        if vertical {
            let cut = min(y, height - y - h)
            (y, h) = (cut, height - 2 * cut)
        }
        return (x, y, w, h)
    }

    /// A region of `width` × `height` (0: the whole side; below 1: that fraction of the side) at
    /// `anchor` moved by `position` (imgproxy's `crop` before the resize), clamped to the image.
    public func cropped(
        toRegionWidth width: Double, height: Double, anchor: Gravity, position: CropPosition?
    ) throws(ImagingError) -> Image {
        let size = regionSize(width: width, height: height)
        guard size.width < self.width || size.height < self.height else { return self }
        var options = ThumbnailOptions(width: size.width, height: size.height, fit: .cover, crop: anchor)
        options.cropPosition = position
        let geometry = ThumbnailGeometry(whole: PixelSize(width: self.width, height: self.height), croppedTo: size)
        return try croppedToResult(geometry, options: options)
    }

    /// The size of `cropped(toRegionWidth:height:anchor:position:)`'s region on this image.
    public func regionSize(width: Double, height: Double) -> PixelSize {
        func side(_ value: Double, of length: Int) -> Int {
            value == 0 ? length : value >= 1 ? min(length, Int(value)) : max(1, Int((Double(length) * value).rounded()))
        }
        return PixelSize(width: side(width, of: self.width), height: side(height, of: self.height))
    }
}
