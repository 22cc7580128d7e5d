internal import CVignetteImageShims
internal import CVignetteVips

/// CMYK thumbnails are reduced in CMYK and converted to sRGB at their own size (as `vips_thumbnail`
/// does when it transforms with a pair of profiles): the littleCMS transform then runs on the
/// thumbnail's pixels, not the decoded image's. docs/performance.md has what that saves and how
/// far the colours move ("CMYK after the resize").
extension Image {
    /// Whether this 8-bit CMYK image (four bands, no alpha) is reduced to `target` before its
    /// conversion to sRGB: when the thumbnail has fewer pixels than the image. Enlarged CMYK,
    /// 16-bit CMYK and CMYK with alpha are converted first, as before.
    func isReducibleCMYK(to target: PixelSize) -> Bool {
        interpretation == VIPS_INTERPRETATION_CMYK && vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR
            && bands == 4 && !hasAlpha && target.width * target.height < width * height
    }

    /// This reduced CMYK thumbnail as 8-bit sRGB without a profile (`standardizedToSRGB8`: through
    /// its own profile or libvips' CMYK one, with the littleCMS transform kept per profile when it
    /// is small enough for it). Its pixels are computed first under `cancellation` when that
    /// transform takes them (it converts from memory), so a lazy resize's decode stops when asked.
    func cmykThumbnailInSRGB(cancellation: ImagingCancellation?) throws(ImagingError) -> Image {
        let source = width * height <= Self.keptTransformMaximumPixels ? try materialized(cancellation: cancellation) : self
        return try source.standardizedToSRGB8()
    }
}
