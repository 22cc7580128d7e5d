#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteTurboJPEG

/// The own decoders held against libjpeg-turbo, for the differential fuzz target (FuzzJPEGDC) and
/// the tests (JPEGDCTests, JPEGScaledTests): one file decoded at 1/8, 1/4 or 1/2 by
/// `JPEGDC.decodePlanes` and by `TurboJPEG.decodePlanes`, their samples compared byte for byte.
extension JPEGDC {
    /// What the DC paths made of one file, against libjpeg-turbo.
    package enum Comparison: Equatable, Sendable {
        /// libjpeg-turbo decoded it and the DC path gave the same samples.
        case same
        /// The DC path declined it (libjpeg-turbo decoded it, or failed).
        case declined
        /// Not a JPEG TurboJPEG decodes to planes, or not compared (`compare`'s limits).
        case notCompared
        /// A progressive file libjpeg-turbo decoded with a warning about entropy-coded data that
        /// the DC scans do not hold (damage inside an AC scan), which the DC path decoded at 1/8:
        /// the known, allowed difference (`JPEGDC`). At 1/4 and 1/2 every scan is read, and such
        /// a file must be declined.
        case uncheckedACData(String)
        /// A difference; the text says which.
        case differs(String)
    }

    /// libjpeg-turbo's warnings about entropy-coded data (jerror.h).
    static let entropyWarnings = [
        "Corrupt JPEG data: premature end of data segment", "Corrupt JPEG data: bad Huffman code",
        "extraneous bytes before marker", "instead of RST",
    ]

    /// `data` decoded by both at 1/`denominator` (8, 4 or 2), when it is a planar JPEG of at most
    /// `maxPixels`. Luma samples past the picture's blocks are not compared: tjDecompressToYUVPlanes
    /// copies them from past the row it decoded (and, for a 4:1:1 image at most 8 pixels wide at
    /// 1/8, 3 bytes past its buffer, which `avoidingReferenceOverread` skips at every scale, as
    /// AddressSanitizer would stop there).
    package static func compare(
        _ data: Data, denominator: Int = 8, maxPixels: Int = .max, avoidingReferenceOverread: Bool = false
    ) -> Comparison {
        guard let header = TurboJPEG.header(of: data), header.isPlanar, header.width * header.height <= maxPixels else {
            return .notCompared
        }
        if avoidingReferenceOverread, header.subsampling == Int32(TJSAMP_411.rawValue), header.width <= 8 {
            return .notCompared
        }
        let fast = decodePlanes(data, header: header, denominator: denominator)
        let reference: YCbCrPlanes
        do {
            reference = try TurboJPEG.decodePlanes(data, header: header, denominator: denominator)
        } catch {
            guard fast != nil else { return .declined }
            if denominator == 8, kind(of: data) == .progressive, entropyWarnings.contains(where: { error.message.contains($0) }) {
                return .uncheckedACData(error.message)
            }
            return .differs("libjpeg-turbo failed (\(error.message)), the own path decoded at 1/\(denominator)")
        }
        guard let fast else { return .declined }
        guard fast.width == reference.width, fast.height == reference.height, fast.subsampling == reference.subsampling,
            fast.extent == reference.extent
        else { return .differs("planes of \(fast.width)x\(fast.height), libjpeg-turbo's \(reference.width)x\(reference.height)") }
        let samples = 8 / denominator   // a block's side in samples
        let blocks = (width: (header.width + 7) / 8 * samples, height: (header.height + 7) / 8 * samples)
        for index in 0..<reference.planeCount {
            let size = reference.planeSize(index)
            let wide = index == 0 ? min(size.width, blocks.width) : size.width
            let high = index == 0 ? min(size.height, blocks.height) : size.height
            if let at = firstDifference(fast, reference, plane: index, wide: wide, high: high) {
                return .differs("plane \(index) differs at (\(at.x), \(at.y)) at 1/\(denominator)")
            }
        }
        return .same
    }

    /// The first sample of the top-left `wide` × `high` of plane `index` where `a` and `b` differ.
    private static func firstDifference(
        _ a: YCbCrPlanes, _ b: YCbCrPlanes, plane index: Int, wide: Int, high: Int
    ) -> (x: Int, y: Int)? {
        a.withPlanePointers { aPointers, aStrides in
            b.withPlanePointers { bPointers, bStrides in
                guard let aPlane = aPointers[index], let bPlane = bPointers[index] else { return (0, 0) }
                for y in 0..<high {
                    let aRow = aPlane + y * Int(aStrides[index]), bRow = bPlane + y * Int(bStrides[index])
                    for x in 0..<wide where aRow[x] != bRow[x] { return (x, y) }
                }
                return nil
            }
        }
    }
}
