#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// Colour: bringing pixels to 8-bit sRGB or grey, and the ICC profile that says what they mean.
///
/// An image's "icc-profile-data" always describes its pixels: every step here that changes what
/// the pixel values mean (a conversion through the profile, CMYK to sRGB, grey to RGB, Lab to sRGB)
/// takes the profile off, and a step that only changes their depth (16 to 8 bits) keeps it. So an
/// image that still carries a profile is one whose pixels need it to be read, and the encoders
/// write it even when they strip metadata (`ImageEncoder`).
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

    /// The ICC profile embedded in the image (libvips' "icc-profile-data" header field, as the
    /// loader read it from the file), or nil when it has none.
    public var iccProfile: Data? { blob(named: "icc-profile-data") }

    var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }

    /// Whether the pixels are device values an ICC profile can describe (RGB, grey, CMYK), rather
    /// than a colourimetric space of libvips' own (Lab, XYZ, scRGB …).
    var isDeviceSpace: Bool {
        [VIPS_INTERPRETATION_sRGB, VIPS_INTERPRETATION_RGB, VIPS_INTERPRETATION_RGB16, VIPS_INTERPRETATION_B_W,
         VIPS_INTERPRETATION_GREY16, VIPS_INTERPRETATION_CMYK, VIPS_INTERPRETATION_MULTIBAND].contains(interpretation)
    }

    /// `vips_colourspace` to `space`. When that turns grey into colour or colour into grey, the
    /// profile (which was for the other) is taken off.
    func converted(to space: Space) throws(ImagingError) -> Image {
        let wasGrey = bands - (hasAlpha ? 1 : 0) < 3
        let image = try apply("vips_colourspace") { vgn_colourspace($0, $1, space.vipsValue) }
        return wasGrey == (space == .blackAndWhite) ? image : try image.withoutProfile()
    }

    /// The image as 8-bit sRGB, or 8-bit grey for greyscale sources, alpha kept, with no colour
    /// management for RGB and grey: their values are kept (16-bit ones scaled to 8 bits by
    /// `vips_colourspace`) and so is their profile. CMYK goes through its embedded ICC profile (or
    /// libvips' built-in CMYK profile): 8-bit CMYK of thumbnail size with a littleCMS transform kept
    /// per profile (`convertedWithKeptTransform`), the rest with `vips_icc_transform`. Lab and others
    /// go through `vips_colourspace`. All come out without a profile. 8-bit sRGB and grey images
    /// come back unchanged. See `convertedToSRGB()` for the colour-managed conversion.
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
            // Thumbnail-sized 8-bit CMYK through a transform kept per profile, as for RGB.
            if let profile = iccProfile ?? BuiltInProfile.cmykData,
                let converted = try convertedWithKeptTransform(profile: profile, cancellation: nil)
            {
                return converted
            }
            image = try image.apply("vips_icc_transform") { vgn_icc_to_srgb($0, $1, "cmyk") }.withoutProfile()
        } else if grey {
            image = try image.converted(to: .blackAndWhite)
        } else {
            image = try image.converted(to: .sRGB)
            if !isDeviceSpace { image = try image.withoutProfile() }
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

    /// `standardizedToSRGB8()`, grey expanded to sRGB (`vips_colourspace`): what libwebp and
    /// libheif take.
    func standardizedToRGB8() throws(ImagingError) -> Image {
        let standard = try standardizedToSRGB8()
        return standard.bands < 3 ? try standard.converted(to: .sRGB) : standard
    }

    /// The image as 8-bit sRGB (or grey, when it is grey without a profile) with the colours its
    /// ICC profile means: converted through the embedded profile to libvips' built-in sRGB profile
    /// (`vips_icc_transform`, `embedded`, relative colorimetric intent), alpha kept, and the profile
    /// taken off (sRGB is what a reader assumes without one). CMYK without a profile goes through
    /// libvips' built-in CMYK profile; RGB and grey without one are taken as sRGB. A profile that
    /// cannot be used (damaged, or not for these pixels) is dropped and the values taken as sRGB.
    /// 8-bit RGB images of thumbnail size go through a littleCMS transform kept per profile
    /// instead (`convertedWithKeptTransform`, `SRGBTransforms`), as libvips builds one on every call.
    /// With `cancellation`, that route stops at libvips' next tile once it is cancelled.
    func convertedToSRGB(cancellation: ImagingCancellation? = nil) throws(ImagingError) -> Image {
        guard iccProfile != nil, isDeviceSpace, interpretation != VIPS_INTERPRETATION_CMYK else {
            return try standardizedToSRGB8()
        }
        if let profile = iccProfile, let converted = try convertedWithKeptTransform(profile: profile, cancellation: cancellation) {
            return converted
        }
        let managed: Image
        do {
            managed = try apply("vips_icc_transform") { vgn_icc_to_srgb($0, $1, "srgb") }
        } catch {
            return try withoutProfile().standardizedToSRGB8()
        }
        return try managed.withoutProfile().standardizedToSRGB8()
    }

    /// The image with `profile` as its "icc-profile-data" (`vips_copy`, then the field set).
    func withProfile(_ profile: Data) throws(ImagingError) -> Image {
        try apply("vips_copy") { input, output in
            profile.withUnsafeBytes { bytes in vgn_copy_with_profile(input, output, bytes.baseAddress, bytes.count) }
        }
    }

    /// The image without an ICC profile (`vips_copy`, then the field removed); itself when it has none.
    func withoutProfile() throws(ImagingError) -> Image {
        guard vips_image_get_typeof(pointer, "icc-profile-data") != 0 else { return self }
        return try apply("vips_copy") { vgn_copy_without_profile($0, $1) }
    }

    /// The image with every metadata field removed but its ICC profile: what a saver that keeps
    /// all it finds writes when metadata are stripped but the profile is needed.
    func keepingOnlyProfile() throws(ImagingError) -> Image {
        try apply("vips_copy") { vgn_copy_keeping_only_profile($0, $1) }
    }

    func castBack(to format: VipsBandFormat) throws(ImagingError) -> Image {
        let target = Int32(format.rawValue)
        return try apply("vips_cast") { vgn_cast($0, $1, target) }
    }
}

/// libvips' built-in ICC profiles (`vips_profile_load`): what Vignette converts to ("srgb") and
/// the CMYK profile it assumes for CMYK images that carry none ("cmyk").
enum BuiltInProfile: String {
    case sRGB = "srgb", cmyk = "cmyk"

    /// The CMYK profile's bytes, loaded once; nil if libvips cannot give them.
    static let cmykData: Data? = try? BuiltInProfile.cmyk.data()

    /// The profile's bytes.
    func data() throws(ImagingError) -> Data {
        try ImagingRuntime.ensureInitialised()
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        guard vgn_profile_load(rawValue, &bytes, &length) == 0, let bytes else {
            throw VipsErrors.operationError("vips_profile_load")
        }
        defer { vgn_free(bytes) }
        return Data(bytes: bytes, count: length)
    }
}
