#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The frame header (SOFn) and first scan header (SOS) of a JPEG, read by walking its marker
/// segments: what libjpeg will allocate for it.
///
/// libjpeg decodes a single-scan baseline JPEG strip by strip, but a progressive JPEG, or one
/// whose first scan does not hold every component (a multi-scan sequential file), is decoded
/// through a buffer of the DCT coefficients of the whole image (`jdcoefct.c`'s whole-image
/// controller): 64 coefficients of 2 bytes per 8×8 block of every component, at full size even
/// when the output is scaled down by 1/2 to 1/8.
struct JPEGFrameHeader: Equatable {
    struct Component: Equatable {
        var horizontalSampling: Int
        var verticalSampling: Int
    }

    var width: Int
    var height: Int
    /// SOF2, SOF6, SOF10 or SOF14.
    var isProgressive: Bool
    var components: [Component]
    /// Components in the first scan; fewer than `components.count` means a multi-scan file.
    var componentsInFirstScan: Int

    /// Whether libjpeg decodes through whole-image coefficient buffers (`has_multiple_scans`).
    var keepsWholeImageCoefficients: Bool { isProgressive || componentsInFirstScan < components.count }

    /// Bytes of libjpeg's whole-image coefficient buffers (`jround_up`ed to the sampling factors,
    /// as `jdcoefct.c` allocates them), saturating at `Int.max`.
    var coefficientBytes: Int {
        let maxH = components.map(\.horizontalSampling).max() ?? 1
        let maxV = components.map(\.verticalSampling).max() ?? 1
        func blocks(_ length: Int, _ sampling: Int, _ maxSampling: Int, _ roundTo: Int) -> Int {
            let samples = (length * sampling + maxSampling - 1) / maxSampling
            let count = (samples + 7) / 8
            return (count + roundTo - 1) / roundTo * roundTo
        }
        var total = 0
        for component in components {
            let wide = blocks(width, component.horizontalSampling, maxH, component.horizontalSampling)
            let high = blocks(height, component.verticalSampling, maxV, component.verticalSampling)
            total = Int.saturatingSum(total, Int.saturating(wide, high, 64, 2))
        }
        return total
    }

    /// Reads the markers from SOI to the first SOS; nil when no well-formed frame header comes
    /// first (libjpeg will then refuse the file itself).
    init?(_ data: Data) {
        let found: JPEGFrameHeader? = data.withUnsafeBytes { Self.parse($0) }
        guard let found else { return nil }
        self = found
    }

    private init(width: Int, height: Int, isProgressive: Bool, components: [Component], componentsInFirstScan: Int) {
        self.width = width
        self.height = height
        self.isProgressive = isProgressive
        self.components = components
        self.componentsInFirstScan = componentsInFirstScan
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer) -> JPEGFrameHeader? {
        let n = bytes.count
        guard n >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var frame: JPEGFrameHeader?
        var offset = 2
        while offset + 4 <= n {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= n else { return frame }
            let body = offset + 4
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard frame == nil, length >= 8 else { return nil }
                let height = Int(bytes[body + 1]) << 8 | Int(bytes[body + 2])
                let width = Int(bytes[body + 3]) << 8 | Int(bytes[body + 4])
                let count = Int(bytes[body + 5])
                guard count > 0, length >= 8 + 3 * count else { return nil }
                let components = (0..<count).map { index in
                    let sampling = bytes[body + 6 + 3 * index + 1]
                    return Component(horizontalSampling: max(1, Int(sampling >> 4)), verticalSampling: max(1, Int(sampling & 0x0F)))
                }
                frame = JPEGFrameHeader(
                    width: width, height: height, isProgressive: [0xC2, 0xC6, 0xCA, 0xCE].contains(marker),
                    components: components, componentsInFirstScan: count)
            case 0xDA:
                guard var found = frame, length >= 3 else { return nil }
                found.componentsInFirstScan = Int(bytes[body])
                return found
            case 0xD9:
                return frame
            default:
                break
            }
            offset += 2 + length
        }
        // Cut short before the first scan: what libjpeg would allocate is known from the frame.
        return frame
    }
}
