#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// Colour on every route: the shrink-on-load and full-decode routes, embedded thumbnails and
/// `vips_thumbnail` all end in `colourManaged`, after the resize (so the conversion runs on the
/// thumbnail's pixels, not the decoded image's); so does the planar JPEG route, except for a
/// profile that means sRGB and is converted away, which it drops. CMYK sources are made sRGB
/// through their profile before they get here (`Image.standardizedToSRGB8`): right after a
/// reduction (`Image.cmykThumbnailInSRGB`), or before an enlargement.
extension Thumbnailer {
    /// `image` (the resized thumbnail, 8-bit) with the colour `options.keepProfile` asks for, given
    /// `profile`, the ICC profile of the pixels it was made from (read before the resize, which may
    /// drop metadata): with `keepProfile`, the pixels as they are with that profile attached;
    /// otherwise converted through it to sRGB (`Image.convertedToSRGB`, `vips_icc_transform`),
    /// without a profile. Without a profile the image is sRGB (or grey) already. `cancellation`
    /// stops the conversion's computing of the pixels, when it computes them (`convertedToSRGB`).
    func colourManaged(_ image: Image, profile: Data?, cancellation: ImagingCancellation? = nil) throws(ImagingError) -> Image {
        guard let profile else { return image }
        // An 8-bit RGB thumbnail in memory is converted straight from its pixels (no copy tagged
        // with the profile first, which libvips would have to compute into memory again).
        if !options.keepProfile, image.iccProfile == nil,
            let converted = try image.convertedWithKeptTransform(profile: profile, cancellation: cancellation)
        {
            return converted
        }
        // Set again even when the image has it: the copy is the image's own (see `Image.materialized`).
        let tagged = try image.withProfile(profile)
        return options.keepProfile ? tagged : try tagged.convertedToSRGB(cancellation: cancellation)
    }

    /// The profile an embedded thumbnail (`thumbnail`) that has none of its own is read with: the
    /// main image's (`header`), as the EXIF thumbnail of a camera set to Adobe RGB is written in
    /// Adobe RGB, when the two are both colour or both grey and the main image is not CMYK.
    static func profileInherited(by thumbnail: Image, from header: Image) -> Data? {
        guard thumbnail.iccProfile == nil, header.interpretation != VIPS_INTERPRETATION_CMYK, header.isDeviceSpace,
            (header.bands >= 3) == (thumbnail.bands >= 3)
        else { return nil }
        return header.iccProfile
    }
}
