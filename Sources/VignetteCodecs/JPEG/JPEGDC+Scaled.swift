#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteJPEGDC

/// Huffman JPEGs at 1/4 and 1/2 from Vignette's own decoders (`vgn_jpeg_scaled_decode` for
/// sequential files, `vgn_jpeg_scaled_progressive_decode` for progressive ones):
/// libjpeg-turbo's 1/4 and 1/2 decodes run its reduced IDCTs (`jpeg_idct_2x2`, `jpeg_idct_4x4`,
/// which on x86-64 are its SSE2 versions and on arm64 its Neon ones), which read 25 and 56 of a
/// block's 64 coefficients; this decoder decodes every AC symbol, keeps only those, and runs the
/// same IDCT arithmetic, so its planes equal `TurboJPEG.decodePlanes` at that scale. It declines
/// what the DC-only decoder declines (anything libjpeg-turbo would warn about or refuse), and
/// sampling factors for which libjpeg-turbo would decode a chroma component through a larger IDCT
/// than the luma's.
extension JPEGDC {
    /// The reduced-scale decoder's planes at 1/`denominator` (4 or 2), or nil when it declined:
    /// `vgn_jpeg_scaled_decode` for a sequential file, `vgn_jpeg_scaled_progressive_decode` (every
    /// scan decoded into a store of only the coefficients the reduced IDCT reads) when `progressive`.
    static func decodeScaled(_ data: Data, header: TurboJPEG.Header, denominator: Int, progressive: Bool = false) -> YCbCrPlanes? {
        guard denominator == 4 || denominator == 2 else { return nil }
        let decode = progressive ? vgn_jpeg_scaled_progressive_decode : vgn_jpeg_scaled_decode
        return ownPlanes(data, header: header, denominator: denominator) { jpeg, count, planes, strides, widths, heights in
            decode(jpeg.baseAddress, jpeg.count, Int32(8 / denominator), count, planes, strides, widths, heights)
        }
    }

    /// Whether the AVX2 reduced IDCT (two blocks a call) gives the scalar twin's samples for blocks
    /// `a` and `b` (64 coefficients each, natural order) with quantisers `qa` and `qb` at
    /// 1/`denominator` (4 or 2), by `vgn_jpeg_scaled_idct_agrees`; nil when this CPU has no AVX2.
    package static func idctAgrees(_ a: [Int16], _ b: [Int16], _ qa: [UInt16], _ qb: [UInt16], denominator: Int) -> Bool? {
        guard a.count == 64, b.count == 64, qa.count == 64, qb.count == 64, denominator == 4 || denominator == 2 else { return false }
        let result = vgn_jpeg_scaled_idct_agrees(a, b, qa, qb, Int32(8 / denominator))
        return result < 0 ? nil : result == 1
    }
}
