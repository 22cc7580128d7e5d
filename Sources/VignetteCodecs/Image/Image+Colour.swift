internal import CImageShims
internal import CVips

extension Image {
    enum Space {
        case sRGB, blackAndWhite

        var vipsValue: Int32 {
            switch self {
            case .sRGB: Int32(VIPS_INTERPRETATION_sRGB.rawValue)
            case .blackAndWhite: Int32(VIPS_INTERPRETATION_B_W.rawValue)
            }
        }
    }

    var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }

    func converted(to space: Space) throws(ImagingError) -> Image {
        try apply("vips_colourspace") { vgn_colourspace($0, $1, space.vipsValue) }
    }

    /// The image as 8-bit sRGB, or 8-bit grey for greyscale sources, alpha kept: CMYK through its
    /// embedded ICC profile (or libvips' built-in CMYK profile), 16-bit, Lab and others through
    /// `vips_colourspace`. 8-bit sRGB and grey images come back unchanged.
    func standardizedToSRGB8() throws(ImagingError) -> Image {
        let space = interpretation
        let format = vips_image_get_format(pointer)
        let grey = space == VIPS_INTERPRETATION_B_W || space == VIPS_INTERPRETATION_GREY16
        if format == VIPS_FORMAT_UCHAR, space == VIPS_INTERPRETATION_sRGB || space == VIPS_INTERPRETATION_B_W,
            bands <= 4
        {
            return self
        }
        var image = self
        if space == VIPS_INTERPRETATION_CMYK {
            image = try image.apply("vips_icc_transform") { vgn_icc_to_srgb($0, $1, "cmyk") }
        } else if grey {
            image = try image.converted(to: .blackAndWhite)
        } else {
            image = try image.converted(to: .sRGB)
        }
        if vips_image_get_format(image.pointer) != VIPS_FORMAT_UCHAR {
            image = try image.apply("vips_cast") { vgn_cast_uchar($0, $1) }
        }
        // Keep at most colour + one alpha band.
        let colourBands = grey ? 1 : 3
        let wanted = image.hasAlpha ? colourBands + 1 : colourBands
        if image.bands > wanted {
            image = try image.apply("vips_extract_band") { vgn_extract_bands($0, $1, 0, Int32(wanted)) }
        }
        return image
    }

    func castBack(to format: VipsBandFormat) throws(ImagingError) -> Image {
        let target = Int32(format.rawValue)
        return try apply("vips_cast") { vgn_cast($0, $1, target) }
    }
}
