/// The directory of an ICO or CUR file, read by Vignette with bounds-checked access: its entries,
/// each a PNG (decoded by libvips' PNG loader) or a BMP bitmap without file header (a DIB whose
/// height counts its AND mask, decoded by `BMPDecoder`), and the one a thumbnail reads.
///
/// Refused with `ImagingError.Kind.corruptData` naming the entry: a directory past the end of
/// the file, an entry that points into the directory or outside the file, entries that overlap.
struct ICODirectory {
    struct Entry {
        /// Index in the directory, from 0.
        var index: Int
        var offset: Int
        var length: Int
        var isPNG: Bool
        /// The size the entry's own header gives (the PNG's IHDR, the DIB's), not the directory's byte.
        var size: PixelSize
        /// Bits a pixel (32 for a PNG), to prefer the richer of two entries of one size.
        var bitCount: Int
    }

    /// Whether the file is a cursor (CUR, type 2) rather than an icon (ICO, type 1).
    var isCursor: Bool
    var entries: [Entry]

    /// Whether `bytes` begin like an ICO or CUR: reserved 0, type 1 or 2, at least one entry, the
    /// first entry's reserved byte 0 (what is wrong past that is named by `init`).
    static func looksLikeICO(_ bytes: LittleEndianBytes) -> Bool {
        guard bytes.u16(0) == 0, let type = bytes.u16(2), type == 1 || type == 2, let count = bytes.u16(4), count > 0 else { return false }
        return (bytes.u8(9) ?? 0) == 0
    }

    init(_ bytes: LittleEndianBytes) throws(ImagingError) {
        guard let type = bytes.u16(2), let count = bytes.u16(4) else { throw ImagingError(.corruptData, "ICO header is cut short") }
        isCursor = type == 2
        guard count > 0 else { throw ImagingError(.corruptData, "ICO directory has no entries") }
        let directoryEnd = 6 + 16 * count
        guard bytes.contains(0, directoryEnd) else {
            throw ImagingError(.corruptData, "ICO directory of \(count) entries runs past the end of the \(bytes.count)-byte file")
        }
        // Where each entry's data lies, checked before any of it is read.
        var places: [(index: Int, offset: Int, length: Int)] = []
        for index in 0..<count {
            let at = 6 + 16 * index
            let length = Int(bytes.u32(at + 8) ?? 0), offset = Int(bytes.u32(at + 12) ?? 0)
            guard offset >= directoryEnd else { throw ImagingError(.corruptData, "ICO entry \(index) points into the directory (offset \(offset))") }
            guard length >= 12, bytes.contains(offset, length) else {
                throw ImagingError(.corruptData, "ICO entry \(index) (\(length) bytes at \(offset)) lies outside the \(bytes.count)-byte file")
            }
            places.append((index, offset, length))
        }
        let ordered = places.sorted { $0.offset < $1.offset }
        for (first, second) in zip(ordered, ordered.dropFirst()) where first.offset + first.length > second.offset {
            throw ImagingError(.corruptData, "ICO entries \(first.index) and \(second.index) overlap")
        }
        var entries: [Entry] = []
        for (index, offset, length) in places {
            let isPNG = bytes.u32(offset) == 0x474E_5089 && bytes.u32(offset + 4) == 0x0A1A_0A0D
            var size = PixelSize(width: 0, height: 0)
            var bitCount = 32
            if isPNG {
                // IHDR's width and height, big-endian, at 16 and 20.
                func big(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | (bytes.u8(offset + at + $1) ?? 0) } }
                size = PixelSize(width: big(16), height: big(20))
            } else if let header = bytes.u32(offset), header == 40 || header == 12 || header >= 52 {
                let core = header == 12
                let width = core ? bytes.u16(offset + 4) ?? 0 : bytes.i32(offset + 4) ?? 0
                let height = core ? bytes.u16(offset + 6) ?? 0 : bytes.i32(offset + 8) ?? 0
                size = PixelSize(width: width, height: abs(height) / 2)
                bitCount = bytes.u16(offset + (core ? 10 : 14)) ?? 0
            }
            guard size.width > 0, size.height > 0 else {
                throw ImagingError(.corruptData, "ICO entry \(index) is neither a PNG nor a bitmap with a size")
            }
            entries.append(Entry(index: index, offset: offset, length: length, isPNG: isPNG, size: size, bitCount: bitCount))
        }
        self.entries = entries
    }

    /// The entry a result reads: the smallest that is `largeEnough` (a thumbnail of it needs no
    /// enlarging), else the largest; with no test, the largest. Between entries of one size, the
    /// one with more bits a pixel.
    func entry(largeEnough: ((PixelSize) -> Bool)?) -> Entry {
        let byArea = entries.sorted { ($0.size.area, $0.bitCount, -$0.index) < ($1.size.area, $1.bitCount, -$1.index) }
        // `entries` is never empty (the initialiser refuses that), so the fallback is never used.
        guard let largest = byArea.last else { return entries[0] }
        guard let largeEnough else { return largest }
        let covering = byArea.filter { largeEnough($0.size) }
        guard let smallest = covering.first else { return largest }
        // The richest entry of that size.
        return covering.last { $0.size.area == smallest.size.area } ?? smallest
    }
}
