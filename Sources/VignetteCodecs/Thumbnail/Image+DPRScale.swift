internal import CVignetteImageShims
internal import CVignetteVips

extension Image {
    /// The metadata field a thumbnail records its device pixel ratio in.
    private static let dprScaleField = "vignette-dpr-scale"

    /// The device pixel ratio as it applied to the source this thumbnail was made of (imgproxy's
    /// `DprScale`: the one asked for, lowered when the source is too small to give it without
    /// enlarging, or by `ThumbnailOptions.maxResultSide`), which the steps after the thumbnail
    /// multiply the extend canvas and the padding by; nil for an image no thumbnail made. libvips
    /// operations carry it along with the rest of the header.
    package var dprScale: Double? {
        guard vips_image_get_typeof(pointer, Self.dprScaleField) != 0 else { return nil }
        var value = 0.0
        return vips_image_get_double(pointer, Self.dprScaleField, &value) == 0 && value.isFinite && value > 0 ? value : nil
    }

    /// This image with `dprScale` recorded, the pixels shared (`vgn_copy_with_double`: an image in
    /// memory stays one, so encoders still read its pixels directly).
    func recording(dprScale: Double) throws(ImagingError) -> Image {
        try apply("vips_copy") { vgn_copy_with_double($0, $1, Self.dprScaleField, dprScale) }
    }
}
