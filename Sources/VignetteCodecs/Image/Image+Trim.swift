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
        guard threshold.isFinite, threshold >= 0 else {
            throw ImagingError(.invalidArgument, "trim threshold must be 0 or more, got \(threshold)")
        }
        let image = try standardizedToSRGB8().materialized()
        let colour: [Double]
        if let background {
            colour = image.bands - (image.hasAlpha ? 1 : 0) == 1
                ? [(background.red + background.green + background.blue) / 3] : [background.red, background.green, background.blue]
        } else {
            let corner = try image.cropped(x: 0, y: 0, width: 1, height: 1).pixels()
            colour = corner.bytes.prefix(corner.bands - (image.hasAlpha ? 1 : 0)).map(Double.init)
        }
        let searched = image.hasAlpha
            ? try image.flattened(red: colour.first ?? 0, green: colour.count > 1 ? colour[1] : colour[0], blue: colour.last ?? 0)
            : image
        var (left, top, width, height): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let status = colour.withUnsafeBufferPointer {
            vgn_find_trim(searched.pointer, &left, &top, &width, &height, threshold, $0.baseAddress, Int32(colour.count))
        }
        guard status == 0 else { throw VipsErrors.operationError("vips_find_trim") }
        guard width > 0, height > 0 else { return image }
        var (x, y, w, h) = (Int(left), Int(top), Int(width), Int(height))
        if equalHorizontal {
            let cut = min(x, image.width - x - w)
            (x, w) = (cut, image.width - 2 * cut)
        }
        if equalVertical {
            let cut = min(y, image.height - y - h)
            (y, h) = (cut, image.height - 2 * cut)
        }
        return try image.cropped(x: x, y: y, width: w, height: h)
    }

    /// A region of `width` × `height` (0: the whole side; below 1: that fraction of the side) at
    /// `anchor` moved by `position` (imgproxy's `crop` before the resize), clamped to the image.
    public func cropped(
        toRegionWidth width: Double, height: Double, anchor: Gravity, position: CropPosition?
    ) throws(ImagingError) -> Image {
        func side(_ value: Double, of length: Int) -> Int {
            value == 0 ? length : value >= 1 ? min(length, Int(value)) : max(1, Int((Double(length) * value).rounded()))
        }
        let size = PixelSize(width: side(width, of: self.width), height: side(height, of: self.height))
        guard size.width < self.width || size.height < self.height else { return self }
        var options = ThumbnailOptions(width: size.width, height: size.height, fit: .cover, crop: anchor)
        options.cropPosition = position
        let geometry = ThumbnailGeometry(whole: PixelSize(width: self.width, height: self.height), croppedTo: size)
        return try croppedToResult(geometry, options: options)
    }
}
