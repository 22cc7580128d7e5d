#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Tells which of libvips' on-demand modules (see CVignetteImageShims' vgn_open_module) bytes need:
/// HEIF/AVIF (an ISO-BMFF `ftyp` box), JPEG XL (a bare codestream or its container) or PDF
/// (poppler: `%PDF-` in the first kilobyte, where PDF readers look for it).
enum ModuleSniffer {
    static func module(for data: Data) -> String? {
        let head = [UInt8](data.prefix(12))
        if head.count >= 12, head[4...7].elementsEqual(Array("ftyp".utf8)) { return "heif" }
        if head.count >= 2, head[0] == 0xFF, head[1] == 0x0A { return "jxl" }
        let container: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        if head.count >= 12, head.elementsEqual(container) { return "jxl" }
        // "%PDF-" anywhere in the first 1024 bytes, as Acrobat takes it. A plain loop over an array:
        // Foundation's `firstRange(of:)` (for `Data` and, through `DataProtocol`, for `[UInt8]`)
        // costs about 1 % of a 256-px JPEG thumbnail, which asks this once.
        let window = [UInt8](data.prefix(1024)), marker = Array("%PDF-".utf8)
        if window.count >= marker.count,
            (0...window.count - marker.count).contains(where: { start in
                window[start] == marker[0] && window[start..<start + marker.count].elementsEqual(marker)
            })
        {
            return "poppler"
        }
        return nil
    }
}
