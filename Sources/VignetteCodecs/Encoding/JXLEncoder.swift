#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// JPEG XL encoding through libvips' `vips_jxlsave_buffer` (libjxl 0.7 in Debian 12). libvips 8.14
/// flags its JPEG XL saver and loader untrusted, so `vips_block_untrusted_set` would block them;
/// Vignette unblocks those two alone (CVignetteImageShims' `vgn_allow_jxl`), keeping ImageMagick's blocked.
enum JXLEncoder {
    static func encode(_ image: Image, options: JXLOptions, cancellation: ImagingCancellation?) throws(ImagingError) -> Data {
        try ImageEncoder.check(options.quality, in: 1...100, "JPEG XL quality")
        try ImageEncoder.check(options.effort, in: 3...9, "JPEG XL effort")
        guard ImagingRuntime.jxlAvailable else {
            throw ImagingError(.encoderUnavailable, "this libvips has no JPEG XL saver (jxlsave_buffer)")
        }
        // JPEG XL keeps the profile the pixels need, no other metadata (JXLOptions has no keepMetadata).
        let (standard, keep) = try ImageEncoder.forSaver(image.standardizedToSRGB8(), keepMetadata: false)
        return try ImageEncoder.save(standard, cancellation) { buffer, length in
            vgn_jxlsave(standard.pointer, buffer, length, Int32(options.quality), Int32(options.effort),
                        options.lossless ? 1 : 0, keep)
        }
    }
}

extension ImagingRuntime {
    /// Whether libvips can read and write JPEG XL: its jxl module opened (on demand when libvips
    /// started without its modules) and `jxlsave_buffer` registered.
    static var jxlAvailable: Bool {
        _ = vgn_open_module("jxl")
        return vips_type_find("VipsOperation", "jxlsave_buffer") != 0
    }
}
