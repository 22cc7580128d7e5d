#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// TIFF encoding through libvips' `vips_tiffsave_buffer` (libtiff): one strip-organised image of
/// 8-bit sRGB or grey, alpha kept (flattened onto white for JPEG compression, which has none).
enum TIFFEncoder {
    static func encode(_ image: Image, options: TIFFOptions, cancellation: ImagingCancellation?) throws(ImagingError) -> Data {
        try ImageEncoder.check(options.quality, in: 1...100, "TIFF JPEG quality")
        var pixels = try image.standardizedToSRGB8()
        if options.compression == .jpeg { pixels = try pixels.flattened() }
        let (standard, keep) = try ImageEncoder.forSaver(pixels, keepMetadata: options.keepMetadata)
        let compression = options.compression.vipsValue
        return try ImageEncoder.save(standard, cancellation) { buffer, length in
            vgn_tiffsave(standard.pointer, buffer, length, compression, Int32(options.quality), keep)
        }
    }
}

extension TIFFOptions.Compression {
    /// libvips' `VipsForeignTiffCompression`.
    var vipsValue: Int32 {
        let value: VipsForeignTiffCompression
        switch self {
        case .none: value = VIPS_FOREIGN_TIFF_COMPRESSION_NONE
        case .deflate: value = VIPS_FOREIGN_TIFF_COMPRESSION_DEFLATE
        case .lzw: value = VIPS_FOREIGN_TIFF_COMPRESSION_LZW
        case .jpeg: value = VIPS_FOREIGN_TIFF_COMPRESSION_JPEG
        }
        return Int32(value.rawValue)
    }
}
