/// The index of a Multi-Picture Format file (CIPA DC-007): the APP2 "MPF\0" segment of the first
/// image, a TIFF structure whose index IFD lists every image of the file by an MP entry (attribute,
/// size, offset from the TIFF header's first byte, the first image's offset being 0). Read bounded
/// by the segment: every offset and count is checked against the bytes it was given.
package struct MultiPictureIndex: Sendable, Equatable {
    /// One image of the file.
    package struct Entry: Sendable, Equatable {
        /// Flags (dependent parent/child, representative image), format and type (e.g. 0x030000,
        /// baseline MP primary image), as stored.
        package var attribute: UInt32
        /// Its bytes.
        package var size: UInt32
        /// From the MPF TIFF header's first byte; 0 for the first image.
        package var offset: UInt32
        /// The dependent image entry numbers, as stored.
        package var dependent1: UInt16, dependent2: UInt16

        /// An entry of these fields.
        package init(attribute: UInt32, size: UInt32, offset: UInt32, dependent1: UInt16, dependent2: UInt16) {
            self.attribute = attribute
            self.size = size
            self.offset = offset
            self.dependent1 = dependent1
            self.dependent2 = dependent2
        }
    }

    /// Whether the TIFF structure is little-endian ("II").
    package var littleEndian: Bool
    /// The MPFVersion tag's four bytes ("0100").
    package var version: [UInt8]
    /// The images, the first one the primary.
    package var entries: [Entry]

    /// The segment's signature before the TIFF header.
    package static let signature: [UInt8] = Array("MPF".utf8) + [0]
    /// The most images read.
    static let maximumEntries = 64

    /// The index in the payload of an APP2 segment (after its length bytes, starting "MPF\0").
    package init(payload: ArraySlice<UInt8>) throws(ImagingError) {
        let tiff = Array(payload.dropFirst(Self.signature.count))
        guard payload.starts(with: Self.signature), tiff.count >= 8 else { throw Self.corrupt("no TIFF header") }
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: throw Self.corrupt("no byte order mark")
        }
        let reader = Reader(bytes: tiff, littleEndian: littleEndian)
        guard try reader.u16(2) == 42 else { throw Self.corrupt("no TIFF magic number") }
        let ifd = Int(try reader.u32(4))
        let count = Int(try reader.u16(ifd))
        guard count <= 256 else { throw Self.corrupt("\(count) tags in the index IFD") }
        var version: [UInt8]?, imageCount: Int?, entryData: (offset: Int, count: Int)?
        for index in 0..<count {
            let at = ifd + 2 + 12 * index
            let tag = try reader.u16(at), type = try reader.u16(at + 2), items = Int(try reader.u32(at + 4))
            switch tag {
            case 0xB000:
                guard type == 7, items == 4 else { throw Self.corrupt("MPFVersion is not four bytes") }
                version = try reader.bytes(at + 8, 4)
            case 0xB001:
                guard type == 4, items == 1 else { throw Self.corrupt("NumberOfImages is not one LONG") }
                imageCount = Int(try reader.u32(at + 8))
            case 0xB002:
                guard type == 7, items % 16 == 0, items > 0 else { throw Self.corrupt("MPEntry is not a multiple of 16 bytes") }
                // Values over four bytes lie at an offset from the TIFF header.
                entryData = (Int(try reader.u32(at + 8)), items / 16)
            default:
                continue
            }
        }
        guard let imageCount, let entryData else { throw Self.corrupt("no NumberOfImages or MPEntry") }
        guard imageCount == entryData.count, (1...Self.maximumEntries).contains(imageCount) else {
            throw Self.corrupt("\(imageCount) images but \(entryData.count) MP entries")
        }
        var entries: [Entry] = []
        for index in 0..<imageCount {
            let at = entryData.offset + 16 * index
            entries.append(Entry(
                attribute: try reader.u32(at), size: try reader.u32(at + 4), offset: try reader.u32(at + 8),
                dependent1: try reader.u16(at + 12), dependent2: try reader.u16(at + 14)))
        }
        self.version = version ?? Array("0100".utf8)
        self.entries = entries
    }

    /// An index of `entries` in this byte order and version.
    package init(littleEndian: Bool, version: [UInt8], entries: [Entry]) {
        self.littleEndian = littleEndian
        self.version = version
        self.entries = entries
    }

    /// The segment's payload ("MPF\0", the TIFF header, the index IFD with MPFVersion,
    /// NumberOfImages and MPEntry, then the entries): always `payloadSize(entries:)` bytes.
    package var payload: [UInt8] {
        var out = Self.signature
        func u16(_ value: UInt16) { out += littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)] }
        func u32(_ value: UInt32) {
            let bytes = (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
            out += littleEndian ? bytes : bytes.reversed()
        }
        out += littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        u16(42)
        u32(8)
        u16(3)
        u16(0xB000); u16(7); u32(4); out += (version + [0, 0, 0, 0]).prefix(4)
        u16(0xB001); u16(4); u32(1); u32(UInt32(entries.count))
        // The entries follow the IFD and its next-IFD offset: 8 + 2 + 3 × 12 + 4.
        u16(0xB002); u16(7); u32(UInt32(16 * entries.count)); u32(50)
        u32(0)
        for entry in entries {
            u32(entry.attribute); u32(entry.size); u32(entry.offset); u16(entry.dependent1); u16(entry.dependent2)
        }
        return out
    }

    /// The bytes from the start of the payload to the TIFF header, which offsets count from.
    package static let headerOffset = signature.count

    static func corrupt(_ message: String) -> ImagingError { ImagingError(.corruptData, "MPF: \(message)") }

    /// Bounded reads of TIFF integers.
    struct Reader {
        let bytes: [UInt8]
        let littleEndian: Bool

        func bytes(_ at: Int, _ count: Int) throws(ImagingError) -> [UInt8] {
            guard at >= 0, count >= 0, at <= bytes.count - count else { throw MultiPictureIndex.corrupt("an offset past the segment") }
            return Array(bytes[at..<(at + count)])
        }

        func u16(_ at: Int) throws(ImagingError) -> UInt16 {
            let b = try bytes(at, 2)
            return littleEndian ? UInt16(b[0]) | UInt16(b[1]) << 8 : UInt16(b[0]) << 8 | UInt16(b[1])
        }

        func u32(_ at: Int) throws(ImagingError) -> UInt32 {
            let b = try bytes(at, 4).map(UInt32.init)
            return littleEndian ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3]
        }
    }
}
