#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

extension GainMapJPEG {
    /// The quality the gain map is written at (libjpeg-turbo): high, since an error in it is
    /// multiplied by the boost (GainMapMax is a log2, 6.6 in phones' files).
    package static let quality = 90

    /// The gain map decoded (libvips' JPEG loader, within `limits`) and scaled to the primary's
    /// stored size (`vips_resize`), so that the image's own geometry applies to it unchanged;
    /// 8-bit, one or three bands, no ICC profile (its values are gains, not colours).
    package func gainMapAtPrimarySize(limits: DecodingLimits) throws(ImagingError) -> Image {
        let decoded = try ImageDecoder(limits: limits).decode(gainMap).withoutProfile()
        guard decoded.bands == 1 || decoded.bands == 3, vips_image_get_format(decoded.pointer) == VIPS_FORMAT_UCHAR else {
            throw ImagingError(.unsupportedFormat, "gain map: \(decoded.bands) bands of \(decoded.bytesPerSample) bytes, not 8-bit grey or RGB")
        }
        guard decoded.width == gainMapSize.width, decoded.height == gainMapSize.height else {
            throw ImagingError(.corruptData, "gain map: decoded \(decoded.width)x\(decoded.height), its header says \(gainMapSize)")
        }
        return try decoded.resized(toWidth: primarySize.width, height: primarySize.height, kernel: .linear)
    }

    /// The gain map's size for a result of `result` pixels: `result` scaled by the source's
    /// gain-map-to-image ratio, across and down (swapped when `transposed`: the result's width
    /// lies along the source's height), each side at least 1.
    package func gainMapSize(forResult result: PixelSize, transposed: Bool) -> PixelSize {
        var ratioX = Double(gainMapSize.width) / Double(primarySize.width), ratioY = Double(gainMapSize.height) / Double(primarySize.height)
        if transposed { swap(&ratioX, &ratioY) }
        return PixelSize(width: max(1, Int((Double(result.width) * ratioX).rounded())), height: max(1, Int((Double(result.height) * ratioY).rounded())))
    }

    /// `image` (a gain map at a result's size) resized to `size` and written as a baseline JPEG
    /// at `quality` (libjpeg-turbo), grey or RGB as it is.
    package static func encodedGainMap(_ image: Image, size: PixelSize) throws(ImagingError) -> Data {
        let resized = try image.resized(toWidth: size.width, height: size.height, kernel: .lanczos3).materialized()
        guard vips_image_get_format(resized.pointer) == VIPS_FORMAT_UCHAR, resized.bands == 1 || resized.bands == 3,
            let data = try resized.withPixelMemory({ (pixels) throws(ImagingError) in
                try TurboJPEG.encode(pixels: pixels, width: resized.width, height: resized.height, bands: resized.bands, quality: quality)
            })
        else { throw ImagingError(.operationFailed, "gain map: \(resized.bands) bands at \(resized.width)x\(resized.height) cannot be written") }
        return data
    }
}

extension Image {
    /// The image with EXIF orientation `orientation` (1–8) applied, whatever its own tag says:
    /// the turns and mirrors of `vips_autorot` (`vips_rot`, `vips_flip`).
    package func oriented(_ orientation: Int) throws(ImagingError) -> Image {
        switch orientation {
        case 2: return try flipped(horizontally: true)
        case 3: return try rotated(degrees: 180)
        case 4: return try flipped(horizontally: false)
        case 5: return try rotated(degrees: 90).flipped(horizontally: true)
        case 6: return try rotated(degrees: 90)
        case 7: return try rotated(degrees: 90).flipped(horizontally: false)
        case 8: return try rotated(degrees: 270)
        default: return self
        }
    }
}

extension GainMapJPEG {
    /// `primary` (the result, a JPEG of `result` pixels made from this source) with the gain map
    /// kept: the gain map scaled to the source image's size (`gainMapAtPrimarySize`), taken
    /// through `geometry` (the result's steps; it says whether they transposed the image), checked
    /// to have come out at the result's size, resized by the source's ratio
    /// (`gainMapSize(forResult:transposed:)`), written as a JPEG (`encodedGainMap`) and appended
    /// with the metadata and the MPF index (`assembled`).
    package func keeping(
        in primary: Data, result: PixelSize, limits: DecodingLimits,
        geometry: (Image) throws(ImagingError) -> (image: Image, transposed: Bool)
    ) throws(ImagingError) -> Data {
        let (image, transposed) = try geometry(gainMapAtPrimarySize(limits: limits))
        guard image.width == result.width, image.height == result.height else {
            throw ImagingError(.operationFailed, "gain map: it came out \(image.width)x\(image.height), the image \(result)")
        }
        let gainMap = try Self.encodedGainMap(image, size: gainMapSize(forResult: result, transposed: transposed))
        return try assembled(primary: primary, gainMap: gainMap)
    }
}
