#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The sample counts an MP4 or MOV file declares (`stsz`, `stz2` in each track's sample table),
/// checked against its size before FFmpeg reads it. libavformat's MOV demuxer sizes each track's
/// index from the declared count (24 bytes a sample) and, with a constant sample size, reads no
/// entry to back it: a 1 KB file declaring 60 million samples made it allocate 1.4 GB (FuzzVideo).
/// Each sample takes at least a byte of the file, so the counts together may not pass its size.
enum MP4SampleTables {
    /// Boxes whose children are boxes, on the way to the sample tables.
    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl"]

    /// Throws `.corruptData` when the sample tables declare more samples than `data` has bytes.
    static func check(_ data: Data) throws(ImagingError) {
        let declared = data.withUnsafeBytes { bytes in
            var declared = 0
            walk(bytes, from: 0, to: bytes.count, depth: 0, declared: &declared)
            return declared
        }
        if declared > data.count {
            throw ImagingError(
                .corruptData, "the file's sample tables declare \(declared) samples, more than its \(data.count) bytes can hold")
        }
    }

    /// Adds the sample counts of the boxes in `bytes[start..<end]` (and of their containers') to `declared`.
    private static func walk(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int, depth: Int, declared: inout Int) {
        guard depth <= containers.count else { return }
        var offset = start
        while end - offset >= 8 {
            var size = Int(uint32(bytes, offset))
            let type = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8)]), as: UTF8.self)
            var header = 8
            if size == 1 {
                guard end - offset >= 16 else { return }
                let large = UInt64(uint32(bytes, offset + 8)) << 32 | UInt64(uint32(bytes, offset + 12))
                size = large > UInt64(end - offset) ? end - offset + 1 : Int(large)
                header = 16
            } else if size == 0 {
                size = end - offset
            }
            // A box running past its parent is cut short: what it holds is read up to the end.
            guard size >= header else { return }
            let boxEnd = min(end, offset + min(size, end - offset))
            let body = offset + header
            if containers.contains(type) {
                walk(bytes, from: body, to: boxEnd, depth: depth + 1, declared: &declared)
            } else if (type == "stsz" || type == "stz2"), boxEnd - body >= 12 {
                // Version and flags; the constant size (stsz) or the field size (stz2); the count.
                declared = declared.addingReportingOverflow(Int(uint32(bytes, body + 8))).partialValue
                if declared < 0 { declared = .max }
            }
            if size > end - offset { return }
            offset += size
        }
    }

    private static func uint32(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }
}
