extension ThumbnailOptions {
    /// Whether a source of `size` makes this thumbnail without being enlarged: its resized size
    /// (`ThumbnailGeometry`, with the box's `dpr` and zoom, enlarging allowed) is no larger than
    /// it on either side. It picks the entry of an icon (`ICODirectory.entry(largeEnough:)`).
    func needsNoEnlarging(of size: PixelSize) -> Bool {
        var enlarging = self
        enlarging.allowUpscaling = true
        let resized = ThumbnailGeometry(source: size, options: enlarging).resized
        return resized.width <= size.width && resized.height <= size.height
    }
}
