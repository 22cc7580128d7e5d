internal import CVignetteImageShims
internal import CVignetteVips

extension Image {
    /// Where libvips' attention heuristic (`vips_smartcrop`, "attention") puts a window of
    /// `size` (each side at most the image's): its top left corner, read from the crop's offsets,
    /// without computing the crop's pixels. The whole image gives (0, 0).
    public func attentionWindow(_ size: PixelSize) throws(ImagingError) -> (x: Int, y: Int) {
        let (w, h) = (min(size.width, width), min(size.height, height))
        guard w > 0, h > 0, w < width || h < height else { return (0, 0) }
        let attention = Int32(VIPS_INTERESTING_ATTENTION.rawValue)
        let window = try apply("vips_smartcrop") { vgn_smartcrop($0, $1, Int32(w), Int32(h), attention) }
        let x = -Int(vips_image_get_xoffset(window.pointer)), y = -Int(vips_image_get_yoffset(window.pointer))
        return (min(max(0, x), width - w), min(max(0, y), height - h))
    }

    /// The focus point (`CropPosition`, 0–1 each) that puts a window of `size` where
    /// `attentionWindow(_:)` does: one placement to give every frame of an animation.
    public func attentionFocus(_ size: PixelSize) throws(ImagingError) -> CropPosition {
        let (w, h) = (min(size.width, width), min(size.height, height))
        let (x, y) = try attentionWindow(PixelSize(width: w, height: h))
        // `cropStart` centres a window of `inner` on `outer × focus`: start = focus·outer − inner/2.
        return CropPosition(x: Double(x + w / 2) / Double(width), y: Double(y + h / 2) / Double(height), isFocusPoint: true)
    }

    /// `options` with an attention crop (`Gravity.attention`, no focus point) placed on this
    /// image resized as `options` resize it (`resized(toFit:)`): the focus point of
    /// `attentionFocus(_:)`, so that other images of the same size (an animation's frames) are cut
    /// by the same window. Other options come back as they are.
    public func attentionPlaced(_ options: ThumbnailOptions) throws(ImagingError) -> ThumbnailOptions {
        guard options.crop.withoutFaces == .attention, options.cropPosition?.isFocusPoint != true else { return options }
        try options.validate()
        let geometry = ThumbnailGeometry(source: PixelSize(width: width, height: height), options: options)
        guard geometry.crops else { return options }
        let resized = try resized(toWidth: geometry.resized.width, height: geometry.resized.height, kernel: options.kernel)
        var placed = options
        placed.cropPosition = try resized.materialized().attentionFocus(geometry.output)
        return placed
    }
}
