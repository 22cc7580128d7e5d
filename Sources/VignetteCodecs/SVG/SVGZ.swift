#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteDeflate

/// Gzip-compressed SVG (`.svgz`): recognised by the gzip signature (1F 8B) and decompressed with
/// libdeflate (`libdeflate_gzip_decompress`) into a buffer no larger than the SVG byte budget
/// (`SVGSanitizer.Limits.maxBytes`), so that a gzip bomb is refused once its output passes the
/// budget, never inflated whole. The buffer starts from the size the gzip trailer claims and grows
/// by doubling up to the budget. The document then takes the SVG path (`SVGSanitizer`, librsvg).
enum SVGZ {
    /// The SVG document inside `data` when `data` is gzip-compressed SVG; nil when it is not gzip,
    /// or gzip of something else. Throws `.limitExceeded` past the budget, `.corruptData` for a
    /// stream libdeflate cannot read.
    static func decompressed(_ data: Data, budget: Int = SVGSanitizer.Limits().maxBytes) throws(ImagingError) -> Data? {
        guard data.count >= 18, data.starts(with: [0x1F, 0x8B, 0x08]) else { return nil }
        // ISIZE, the trailer's claim (modulo 2^32): a first guess only, since a bomb may lie.
        let claimed = data.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        if claimed > budget {
            throw ImagingError(.limitExceeded, "compressed SVG claims \(claimed) bytes, over the limit of \(budget)")
        }
        guard let decompressor = libdeflate_alloc_decompressor() else {
            throw ImagingError(.operationFailed, "libdeflate_alloc_decompressor failed")
        }
        defer { libdeflate_free_decompressor(decompressor) }
        var capacity = min(budget, max(claimed, 64 << 10))
        while true {
            var output = [UInt8](repeating: 0, count: capacity)
            var produced = 0
            let status = data.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    libdeflate_gzip_decompress(decompressor, input.baseAddress, input.count, out.baseAddress, out.count, &produced)
                }
            }
            switch status {
            case LIBDEFLATE_SUCCESS:
                output.removeSubrange(produced...)
                let document = Data(output)
                return SVGSanitizer.looksLikeSVG(document) ? document : nil
            case LIBDEFLATE_INSUFFICIENT_SPACE:
                guard capacity < budget else {
                    throw ImagingError(.limitExceeded, "compressed SVG inflates past \(budget) bytes, the limit of an SVG document")
                }
                capacity = min(budget, capacity * 2)
            default:
                throw ImagingError(.corruptData, "compressed SVG is not a readable gzip stream")
            }
        }
    }
}
