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
        if data.prefix(1024).firstRange(of: Data("%PDF-".utf8)) != nil { return "poppler" }
        return nil
    }
}
