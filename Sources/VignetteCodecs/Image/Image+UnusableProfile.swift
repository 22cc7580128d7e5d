#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// Embedded ICC profiles that cannot describe the pixels they come with are ignored, as libvips
/// ignores them: a profile for another colour space than the image's bands (RGB on a greyscale
/// JPEG, CMYK on RGB, grey on RGB or CMYK…), or one littleCMS cannot read. The header's colour
/// space against the bands, then libvips' own test (`vips_icc_is_compatible_profile`), decide;
/// the image is then made as if it had no profile, and the reason travels with it (`ignoredProfile`, then
/// `ImageInfo.ignoredProfile`) for a warning, instead of failing every thumbnail.
extension Image {
    /// The header field that carries why a profile was taken off (`withoutUnusableProfile()`).
    static let ignoredProfileField = "vignette-ignored-profile"

    /// Why the ICC profile embedded in the file was ignored when this image was loaded (it is for
    /// another colour space than the image's bands, or cannot be read, as libvips'
    /// `vips_icc_is_compatible_profile` judges): the image is then read as if it had none. nil when
    /// the profile was used, or there was none.
    public var ignoredProfile: String? {
        guard vips_image_get_typeof(pointer, Self.ignoredProfileField) != 0 else { return nil }
        var value: UnsafePointer<CChar>?
        guard vips_image_get_string(pointer, Self.ignoredProfileField, &value) == 0, let value else {
            vips_error_clear()
            return nil
        }
        return String(cString: value)
    }

    /// Why libvips would not use the embedded profile with these pixels, or nil when it would (or
    /// there is none). Images in a colourimetric space of libvips' own (Lab, XYZ…) are not asked.
    var unusableProfileReason: String? {
        guard isDeviceSpace, let profile = iccProfile else { return nil }
        let colourBands = bands - (hasAlpha ? 1 : 0)
        let bandsText = "\(colourBands) colour band\(colourBands == 1 ? "" : "s")"
        guard let space = ICCProfileHeader(profile)?.colourSpace else {
            return "the embedded ICC profile (\(profile.count) bytes) has no ICC header: it is ignored"
        }
        // libvips 8.14 takes a grey profile for any number of bands (and then makes a grey result
        // of an RGB image): the three device spaces must match the bands exactly.
        let expected = ["GRAY": 1, "RGB": 3, "CMYK": 4][space]
        var fits = expected.map { $0 == colourBands } ?? true
        if fits {
            fits = profile.withUnsafeBytes { bytes in vips_icc_is_compatible_profile(pointer, bytes.baseAddress, bytes.count) != 0 }
            // littleCMS' complaints about a damaged profile are left in libvips' error buffer.
            vips_error_clear()
        }
        return fits ? nil : "the embedded ICC profile (\(space), \(profile.count) bytes) does not fit an image of \(bandsText): it is ignored"
    }

    /// The image without its ICC profile when libvips would not use it (`unusableProfileReason`),
    /// the reason kept in a header field of the copy (`vips_copy`); itself otherwise.
    func withoutUnusableProfile() throws(ImagingError) -> Image {
        guard let reason = unusableProfileReason else { return self }
        let copy = try withoutProfile()
        // The copy is this function's own until it returns: its fields may still be set.
        vips_image_set_string(copy.pointer, Self.ignoredProfileField, reason)
        return copy
    }
}

/// The fixed 128-byte header of an ICC profile (ICC.1:2010 section 7.2), read for its data colour
/// space, to name it in messages.
struct ICCProfileHeader {
    /// The data colour space's signature, trimmed ("RGB", "GRAY", "CMYK", "Lab" …).
    let colourSpace: String

    /// The header of `profile`, or nil when it is shorter than a header or its signature
    /// ("acsp" at byte 36) is missing.
    init?(_ profile: Data) {
        let bytes = [UInt8](profile.prefix(128))
        guard bytes.count == 128, bytes[36..<40].elementsEqual("acsp".utf8) else { return nil }
        let signature = bytes[16..<20].map { (33...126).contains($0) ? Character(UnicodeScalar($0)) : " " }
        colourSpace = String(String(signature).split(separator: " ").first ?? "?")
    }
}
