extension Image {
    /// Resized to `options`' box with its fit (inside, cover cropped at `options.crop`, fill),
    /// upscaling only when allowed, with `options.kernel` (`vips_resize`); the decoding and
    /// orientation settings of `options` do not apply to an image already decoded. Colour follows
    /// `options.keepProfile` as thumbnails do: an image with an ICC profile is converted through it
    /// to sRGB (`vips_icc_transform`) after the resize, unless the profile is kept.
    public func resized(toFit options: ThumbnailOptions) throws(ImagingError) -> Image {
        try options.validate()
        let geometry = ThumbnailGeometry(source: PixelSize(width: width, height: height), options: options)
        var image = try resized(toWidth: geometry.resized.width, height: geometry.resized.height, kernel: options.kernel)
        image = try image.croppedToResult(geometry, options: options)
        image = options.keepProfile || iccProfile == nil ? image : try image.convertedToSRGB()
        return try image.recording(dprScale: geometry.dprScale)
    }
}
