#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Walks the markers of a JPEG as its bytes arrive, counting complete scans.
///
/// It resumes where it stopped, so a growing prefix is read once in all. A scan is complete when
/// the marker after its entropy-coded data has arrived (inside scan data, `FF 00` is a stuffed
/// byte, `FF D0`…`FF D7` restart markers and `FF FF` fill; any other `FF xx` ends the scan).
struct JPEGScanReader: Sendable {
    /// Where reading resumes: a marker's first byte, or a position inside scan data.
    private var offset = 0
    private var inScanData = false
    /// `nil` until the frame header (SOFn) has arrived; then whether it is progressive DCT
    /// (SOF2, or SOF10 with arithmetic coding).
    private(set) var isProgressive: Bool?
    private(set) var width = 0
    private(set) var height = 0
    private(set) var completeScans = 0
    /// The offset of the marker that ends the last complete scan.
    private(set) var endOfCompleteScans = 0
    /// The EOI marker has arrived.
    private(set) var reachedEnd = false
    /// The bytes are not a JPEG a preview can be made of (no SOI, a scan before the frame header,
    /// a second frame header, a bad segment length, garbage where a marker belongs).
    private(set) var isCorrupt = false

    /// Reads what `bytes` (the whole prefix so far) holds past what was read before; with
    /// `untilFrame`, only as far as the frame header.
    mutating func read(_ bytes: UnsafeRawBufferPointer, untilFrame: Bool = false) {
        let n = bytes.count
        if offset == 0 {
            guard n >= 2 else { return }
            guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { isCorrupt = true; return }
            offset = 2
        }
        while !isCorrupt, !reachedEnd, isProgressive != false, !(untilFrame && isProgressive != nil), offset < n {
            if inScanData {
                guard let marker = endOfScan(in: bytes, from: offset) else { return }
                completeScans += 1
                endOfCompleteScans = marker
                inScanData = false
                offset = marker
                continue
            }
            guard offset + 1 < n else { return }
            guard bytes[offset] == 0xFF else { isCorrupt = true; return }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xFF:  // fill byte before a marker
                offset += 1
                continue
            case 0x00, 0xD8:
                isCorrupt = true
                return
            case 0xD9:
                reachedEnd = true
                return
            case 0x01, 0xD0...0xD7:  // markers without a length
                offset += 2
                continue
            default:
                break
            }
            guard offset + 3 < n else { return }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2 else { isCorrupt = true; return }
            let end = offset + 2 + length
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:  // SOFn
                guard isProgressive == nil, length >= 8 else { isCorrupt = true; return }
                guard offset + 9 <= n else { return }
                height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                isProgressive = marker == 0xC2 || marker == 0xCA
            case 0xDA:  // SOS: its header, then entropy-coded data
                guard isProgressive == true else { isCorrupt = true; return }
                guard end <= n else { return }
                inScanData = true
            default:
                break
            }
            offset = end
        }
    }

    /// Finds the marker that ends the scan data starting at `start`, or stops at the end of the
    /// bytes (remembering where, so the next read resumes there).
    private mutating func endOfScan(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var i = start
        let n = bytes.count
        while i < n {
            if bytes[i] != 0xFF {
                i += 1
                continue
            }
            guard i + 1 < n else { break }
            let next = bytes[i + 1]
            if next == 0x00 || (0xD0...0xD7).contains(next) {
                i += 2
            } else if next == 0xFF {
                i += 1
            } else {
                return i
            }
        }
        offset = i
        return nil
    }
}

extension ProgressiveDecoder {
    /// Reads the new bytes of a JPEG and, when more scans are complete than the last preview
    /// showed, decodes the data up to the end of the last complete scan, closed with EOI.
    /// Returns the preview, the scans it shows, and whether no more previews will come.
    func jpegStep(_ reader: inout JPEGScanReader, shown: Int, _ data: Data) -> (Image?, Int, Bool) {
        data.withUnsafeBytes { reader.read($0) }
        if reader.isCorrupt || reader.isProgressive == false { return (nil, shown, true) }
        guard reader.isProgressive == true else { return (nil, shown, false) }
        guard reader.width > 0, reader.height > 0 else { return (nil, shown, true) }
        guard reader.completeScans > shown else { return (nil, shown, reader.reachedEnd) }
        var scans = Data(data.prefix(reader.endOfCompleteScans))
        scans.append(contentsOf: [0xFF, 0xD9])
        var lenient = limits
        lenient.failOn = .none
        // The budget is checked once the header is known: a progressive JPEG costs its whole-image
        // coefficient buffers at every scale, so a refused image never gives a preview.
        // A failed decode is not final: the next complete scan is tried again.
        let side = max(1, minimumPreviewSide ?? .max)
        guard let source = try? LoadedSource(data: scans, limits: lenient),
            let header = try? source.load(failOn: .none)
        else { return (nil, reader.completeScans, reader.reachedEnd) }
        let plan = minimumPreviewSide == nil
            ? DecodePlan.full(source, header) : DecodePlan.covering(PixelSize(width: side, height: side), source, header)
        guard (try? limits.check(plan.cost)) != nil else { return (nil, shown, true) }
        let preview = try? source.load(failOn: .none, extra: plan.loadOptions).materialized()
        return (preview, reader.completeScans, reader.reachedEnd)
    }
}
