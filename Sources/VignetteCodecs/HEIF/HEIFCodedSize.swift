#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The sizes a HEIF/AVIF file's codec streams really have, read from its boxes without decoding.
///
/// An item's `ispe` box says how big the image is, but libheif hands the coded stream to the
/// decoder (libde265, dav1d/aom), which allocates for the size the stream itself declares: an
/// `ispe` of 4096×15 around a 17000×17000 AV1 stream costs 17000×17000. So the decoding budget
/// counts the largest of:
/// - each HEVC decoder configuration (`hvcC`): `pic_width/height_in_luma_samples` of its SPS;
/// - each AV1 item: `max_frame_width/height_minus_1` of the sequence header OBU, from the `av1C`
///   configuration OBUs or, when it has none (libheif writes none), from the item's data (`iloc`);
/// - each `grid` item: the output size in its data.
/// Boxes are walked with every size checked against the bytes left; anything malformed ends the
/// walk with what was found so far (libheif then refuses the file itself).
enum HEIFCodedSize {
    /// The largest coded size found, or nil when none is found.
    static func largest(in data: Data) -> PixelSize? {
        let bytes = [UInt8](data)
        var sizes: [PixelSize] = []
        var file = BoxReader(bytes: bytes, range: 0..<bytes.count)
        while let top = file.next() {
            guard top.type == "meta", top.range.count >= 4 else { continue }
            sizes += metaSizes(bytes, BoxReader(bytes: bytes, range: top.range.lowerBound + 4..<top.range.upperBound))
        }
        return sizes.max { $0.area < $1.area }
    }

    private static func metaSizes(_ bytes: [UInt8], _ children: BoxReader) -> [PixelSize] {
        var children = children
        var sizes: [PixelSize] = []
        var itemTypes: [UInt32: String] = [:]
        var locations: [UInt32: Range<Int>] = [:]
        var idat: Range<Int>?
        var idatItems: Set<UInt32> = []
        while let box = children.next() {
            switch box.type {
            case "iprp":
                var iprp = BoxReader(bytes: bytes, range: box.range)
                while let property = iprp.next() {
                    guard property.type == "ipco" else { continue }
                    var ipco = BoxReader(bytes: bytes, range: property.range)
                    while let item = ipco.next() {
                        let body = Array(bytes[item.range])
                        if item.type == "hvcC", let size = hevcSize(configuration: body) { sizes.append(size) }
                        if item.type == "av1C", body.count > 4, let size = av1Size(obus: Array(body[4...])) { sizes.append(size) }
                    }
                }
            case "iinf":
                itemTypes = itemInfo(bytes, box.range)
            case "iloc":
                (locations, idatItems) = itemLocations(bytes, box.range)
            case "idat":
                idat = box.range
            default:
                break
            }
        }
        for (id, type) in itemTypes where type == "av01" || type == "grid" {
            guard var range = locations[id] else { continue }
            if idatItems.contains(id) {
                guard let idat, range.upperBound <= idat.count else { continue }
                range = idat.lowerBound + range.lowerBound..<idat.lowerBound + range.upperBound
            }
            guard range.lowerBound >= 0, range.upperBound <= bytes.count else { continue }
            let item = Array(bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + 4096)])
            if type == "av01", let size = av1Size(obus: item) { sizes.append(size) }
            if type == "grid", let size = gridSize(item) { sizes.append(size) }
        }
        return sizes
    }

    // MARK: - item info and locations

    /// item ID → item type, from the `infe` entries (versions 2 and 3) of `iinf`.
    private static func itemInfo(_ bytes: [UInt8], _ range: Range<Int>) -> [UInt32: String] {
        guard range.count >= 6 else { return [:] }
        let version = bytes[range.lowerBound]
        let start = range.lowerBound + 4 + (version == 0 ? 2 : 4)
        guard start <= range.upperBound else { return [:] }
        var entries = BoxReader(bytes: bytes, range: start..<range.upperBound)
        var types: [UInt32: String] = [:]
        while let entry = entries.next() {
            guard entry.type == "infe" else { continue }
            var reader = ByteReader(bytes: bytes, range: entry.range)
            guard let versionAndFlags = reader.uint(4) else { continue }
            let infeVersion = versionAndFlags >> 24
            guard infeVersion >= 2, let id = reader.uint(infeVersion == 2 ? 2 : 4), reader.uint(2) != nil,
                let type = reader.fourCC()
            else { continue }
            types[UInt32(truncatingIfNeeded: id)] = type
        }
        return types
    }

    /// item ID → the byte range of its first extent (file offsets, or offsets into `idat` for the
    /// items in the returned set, construction method 1).
    private static func itemLocations(_ bytes: [UInt8], _ range: Range<Int>) -> ([UInt32: Range<Int>], Set<UInt32>) {
        var reader = ByteReader(bytes: bytes, range: range)
        var locations: [UInt32: Range<Int>] = [:]
        var inIdat: Set<UInt32> = []
        guard let versionAndFlags = reader.uint(4), let sizes = reader.uint(2) else { return ([:], []) }
        let version = versionAndFlags >> 24
        let offsetSize = Int(sizes >> 12 & 0xF), lengthSize = Int(sizes >> 8 & 0xF)
        let baseOffsetSize = Int(sizes >> 4 & 0xF), indexSize = version == 1 || version == 2 ? Int(sizes & 0xF) : 0
        guard let count = reader.uint(version < 2 ? 2 : 4) else { return ([:], []) }
        for _ in 0..<min(count, 65_536) {
            guard let id = reader.uint(version < 2 ? 2 : 4) else { break }
            var method: UInt64 = 0
            if version == 1 || version == 2 {
                guard let value = reader.uint(2) else { break }
                method = value & 0xF
            }
            guard reader.uint(2) != nil, let base = reader.uint(baseOffsetSize), let extents = reader.uint(2) else { break }
            for extent in 0..<extents {
                guard reader.uint(indexSize) != nil, let offset = reader.uint(offsetSize), let length = reader.uint(lengthSize)
                else { return (locations, inIdat) }
                if extent == 0 {
                    let (start, overflow) = base.addingReportingOverflow(offset)
                    let (end, overflowEnd) = start.addingReportingOverflow(length == 0 ? 4096 : length)
                    if !overflow, !overflowEnd, end <= UInt64(Int.max) {
                        let key = UInt32(truncatingIfNeeded: id)
                        locations[key] = Int(start)..<Int(end)
                        if method == 1 { inIdat.insert(key) }
                    }
                }
            }
        }
        return (locations, inIdat)
    }

    // MARK: - codec headers

    /// The output size of an image grid item's data.
    static func gridSize(_ data: [UInt8]) -> PixelSize? {
        var reader = ByteReader(bytes: data, range: 0..<data.count)
        guard reader.uint(1) == 0, let flags = reader.uint(1), reader.uint(2) != nil else { return nil }
        let fieldSize = flags & 1 == 1 ? 4 : 2
        guard let width = reader.uint(fieldSize), let height = reader.uint(fieldSize) else { return nil }
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// `max_frame_width/height_minus_1` + 1 of the first sequence header OBU among `obus`.
    static func av1Size(obus: [UInt8]) -> PixelSize? {
        var offset = 0
        while offset < obus.count {
            let header = obus[offset]
            let type = header >> 3 & 0xF
            let hasExtension = header & 0x4 != 0
            let hasSize = header & 0x2 != 0
            offset += hasExtension ? 2 : 1
            var payloadSize = obus.count - offset
            if hasSize {
                var value = 0
                var shift = 0
                while true {
                    guard offset < obus.count, shift < 56 else { return nil }
                    let byte = obus[offset]
                    offset += 1
                    value |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte & 0x80 == 0 { break }
                }
                payloadSize = value
            }
            guard offset <= obus.count else { return nil }
            let end = offset + min(payloadSize, obus.count - offset)
            if type == 1 { return av1SequenceHeaderSize(Array(obus[offset..<end])) }
            offset = end
        }
        return nil
    }

    private static func av1SequenceHeaderSize(_ payload: [UInt8]) -> PixelSize? {
        var r = BitReader(payload)
        guard r.bits(3) != nil, r.bits(1) != nil, let reduced = r.flag() else { return nil }
        if reduced {
            guard r.bits(5) != nil else { return nil }
        } else {
            guard let timing = r.flag() else { return nil }
            var decoderModel = false
            var bufferDelayLength = 0
            if timing {
                guard r.bits(32) != nil, r.bits(32) != nil, let equal = r.flag() else { return nil }
                if equal { guard r.uvlc() != nil else { return nil } }
                guard let present = r.flag() else { return nil }
                decoderModel = present
                if present {
                    guard let delay = r.bits(5), r.bits(32) != nil, r.bits(5) != nil, r.bits(5) != nil else { return nil }
                    bufferDelayLength = Int(delay) + 1
                }
            }
            guard let initialDisplayDelay = r.flag(), let points = r.bits(5) else { return nil }
            for _ in 0...points {
                guard r.bits(12) != nil, let level = r.bits(5) else { return nil }
                if level > 7 { guard r.bits(1) != nil else { return nil } }
                if decoderModel {
                    guard let present = r.flag() else { return nil }
                    if present {
                        guard r.bits(bufferDelayLength) != nil, r.bits(bufferDelayLength) != nil, r.bits(1) != nil else { return nil }
                    }
                }
                if initialDisplayDelay {
                    guard let present = r.flag() else { return nil }
                    if present { guard r.bits(4) != nil else { return nil } }
                }
            }
        }
        guard let widthBits = r.bits(4), let heightBits = r.bits(4),
            let width = r.bits(Int(widthBits) + 1), let height = r.bits(Int(heightBits) + 1)
        else { return nil }
        return PixelSize(width: Int(width) + 1, height: Int(height) + 1)
    }

    /// `pic_width/height_in_luma_samples` of the first SPS in an `hvcC` body.
    static func hevcSize(configuration: [UInt8]) -> PixelSize? {
        guard configuration.count > 23 else { return nil }
        var offset = 23
        let arrays = Int(configuration[22])
        for _ in 0..<arrays {
            guard offset + 3 <= configuration.count else { return nil }
            let nalType = configuration[offset] & 0x3F
            let count = Int(configuration[offset + 1]) << 8 | Int(configuration[offset + 2])
            offset += 3
            for _ in 0..<count {
                guard offset + 2 <= configuration.count else { return nil }
                let length = Int(configuration[offset]) << 8 | Int(configuration[offset + 1])
                offset += 2
                guard offset + length <= configuration.count else { return nil }
                if nalType == 33, let size = hevcSPSSize(Array(configuration[offset..<offset + length])) { return size }
                offset += length
            }
        }
        return nil
    }

    private static func hevcSPSSize(_ nal: [UInt8]) -> PixelSize? {
        // Drop the emulation-prevention bytes (00 00 03 → 00 00) after the 2-byte NAL header.
        var rbsp: [UInt8] = []
        var zeros = 0
        for byte in nal.dropFirst(2) {
            if zeros >= 2, byte == 3 { zeros = 0; continue }
            rbsp.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        var r = BitReader(rbsp)
        guard r.bits(4) != nil, let subLayers = r.bits(3).map(Int.init), r.bits(1) != nil else { return nil }
        // profile_tier_level(1, sps_max_sub_layers_minus1)
        guard r.skip(96) else { return nil }
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<subLayers {
            guard let profile = r.flag(), let level = r.flag() else { return nil }
            profilePresent.append(profile)
            levelPresent.append(level)
        }
        if subLayers > 0 { guard r.skip(2 * (8 - subLayers)) else { return nil } }
        for layer in 0..<subLayers {
            if profilePresent[layer] { guard r.skip(88) else { return nil } }
            if levelPresent[layer] { guard r.skip(8) else { return nil } }
        }
        guard r.unsignedExpGolomb() != nil, let chroma = r.unsignedExpGolomb() else { return nil }
        if chroma == 3 { guard r.bits(1) != nil else { return nil } }
        guard let width = r.unsignedExpGolomb(), let height = r.unsignedExpGolomb(),
            width < UInt64(Int32.max), height < UInt64(Int32.max)
        else { return nil }
        return PixelSize(width: Int(width), height: Int(height))
    }
}

/// Walks ISOBMFF boxes (size, type, body) within a byte range, every size checked.
private struct BoxReader {
    /// Where the next box starts, and where the range ends.
    private var cursor: ByteReader

    init(bytes: [UInt8], range: Range<Int>) {
        cursor = ByteReader(bytes: bytes, range: range)
    }

    mutating func next() -> (type: String, range: Range<Int>)? {
        let start = cursor.offset, end = cursor.end
        var header = cursor
        guard let size32 = header.uint(4), let type = header.fourCC() else { return nil }
        var size = Int(size32)
        if size32 == 1 {
            guard let large = header.uint(8), large <= UInt64(Int.max) else { return nil }
            size = Int(large)
        } else if size32 == 0 {
            size = end - start
        }
        let headerSize = header.offset - start
        guard size >= headerSize, size <= end - start else { return nil }
        cursor.offset = start + size
        return (type, start + headerSize..<start + size)
    }
}

/// Reads big-endian unsigned fields of 0–8 bytes within a byte range.
private struct ByteReader {
    let bytes: [UInt8]
    var offset: Int
    let end: Int

    init(bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        offset = range.lowerBound
        end = min(range.upperBound, bytes.count)
    }

    mutating func uint(_ count: Int) -> UInt64? {
        guard count >= 0, count <= 8, offset + count <= end else { return nil }
        var value: UInt64 = 0
        for index in 0..<count { value = value << 8 | UInt64(bytes[offset + index]) }
        offset += count
        return value
    }

    mutating func fourCC() -> String? {
        guard offset + 4 <= end else { return nil }
        let text = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        offset += 4
        return text
    }
}
