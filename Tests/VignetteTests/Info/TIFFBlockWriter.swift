import Foundation

/// Writes a small EXIF block (TIFF, in either byte order) for tests: IFD0 with its entries, an Exif
/// IFD and a GPS IFD, each entry's value inline or after the IFDs, and puts it in a JPEG's APP1.
struct TIFFBlockWriter {
    struct Entry {
        let tag: UInt16, type: UInt16, count: UInt32
        let bytes: [UInt8]  // the value in the block's byte order
    }

    let littleEndian: Bool

    func u16(_ value: UInt16) -> [UInt8] { littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)] }
    func u32(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        return littleEndian ? bytes.reversed() : bytes
    }

    func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(bytes.count), bytes: bytes)
    }
    func short(_ tag: UInt16, _ value: UInt16) -> Entry { Entry(tag: tag, type: 3, count: 1, bytes: u16(value)) }
    func long(_ tag: UInt16, _ value: UInt32) -> Entry { Entry(tag: tag, type: 4, count: 1, bytes: u32(value)) }
    func byte(_ tag: UInt16, _ values: [UInt8]) -> Entry { Entry(tag: tag, type: 1, count: UInt32(values.count), bytes: values) }
    func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)], signed: Bool = false) -> Entry {
        Entry(tag: tag, type: signed ? 10 : 5, count: UInt32(values.count), bytes: values.flatMap { u32($0.0) + u32($0.1) })
    }
    func undefined(_ tag: UInt16, _ bytes: [UInt8]) -> Entry { Entry(tag: tag, type: 7, count: UInt32(bytes.count), bytes: bytes) }

    /// The block ("Exif\0\0" + TIFF): IFD0 = `main` plus pointers to the Exif and GPS IFDs.
    func block(main: [Entry], exif: [Entry], gps: [Entry]) -> [UInt8] {
        // Layout: header (8), IFD0, Exif IFD, GPS IFD, then the values that do not fit inline.
        func ifdSize(_ count: Int) -> Int { 2 + count * 12 + 4 }
        let ifd0Count = main.count + 2
        let ifd0 = 8, exifIFD = ifd0 + ifdSize(ifd0Count), gpsIFD = exifIFD + ifdSize(exif.count)
        let dataOffset = gpsIFD + ifdSize(gps.count)
        var tail: [UInt8] = []
        func ifd(_ entries: [Entry]) -> [UInt8] {
            var out = u16(UInt16(entries.count))
            for entry in entries.sorted(by: { $0.tag < $1.tag }) {
                out += u16(entry.tag) + u16(entry.type) + u32(entry.count)
                if entry.bytes.count <= 4 {
                    out += entry.bytes + [UInt8](repeating: 0, count: 4 - entry.bytes.count)
                } else {
                    out += u32(UInt32(dataOffset + tail.count))
                    tail += entry.bytes
                    if tail.count % 2 == 1 { tail.append(0) }
                }
            }
            return out + u32(0)
        }
        let pointers = [long(0x8769, UInt32(exifIFD)), long(0x8825, UInt32(gpsIFD))]
        var tiff = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        tiff += ifd(main + pointers)
        tiff += ifd(exif)
        tiff += ifd(gps)
        return Array("Exif\0\0".utf8) + tiff + tail
    }

    /// `jpeg` with `block` as an APP1 segment right after SOI.
    static func inserting(_ block: [UInt8], into jpeg: Data) -> Data {
        let length = block.count + 2
        var out = Data(jpeg.prefix(2))
        out += [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + block
        out += jpeg.dropFirst(2)
        return out
    }
}
