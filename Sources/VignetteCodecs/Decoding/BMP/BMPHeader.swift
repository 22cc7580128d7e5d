/// The header of a BMP image (a DIB: Windows `BITMAPINFOHEADER` and its V2–V5 successors, OS/2
/// 1.x `BITMAPCOREHEADER` and OS/2 2.x headers), read by Vignette with bounds-checked access and
/// validated before any pixel is allocated: a size, offset, palette or bit-field mask that does
/// not fit the bytes, an empty colour mask or a density past any device's gives
/// `ImagingError.Kind.corruptData` naming the field.
///
/// Read: 1, 2, 4 and 8 bits with a palette (which may be shorter than 2^bits), RLE8, RLE4, 16 and
/// 32 bits with bit fields (BI_BITFIELDS, BI_ALPHABITFIELDS, the masks of V2–V5 headers) or the
/// defaults (5-5-5, 8-8-8), 24 bits, bottom-up or top-down (negative height). Refused as
/// `.unsupportedFormat`: embedded JPEG or PNG (BI_JPEG, BI_PNG), OS/2 Huffman and RLE24, 64 bits.
struct BMPHeader {
    enum Compression: Equatable {
        case none, rle8, rle4, bitFields
    }

    var width: Int
    var height: Int
    /// Rows stored top first (a negative height in the header).
    var topDown: Bool
    var bitCount: Int
    var compression: Compression
    /// Red, green, blue and alpha masks of 16- and 32-bit pixels (alpha 0: none).
    var masks: [UInt32]
    /// Palette colours as (red, green, blue), at most 2^bitCount.
    var palette: [(UInt8, UInt8, UInt8)]
    /// Where the pixel data begins, from the start of the bytes read.
    var pixelOffset: Int

    /// Bytes of one stored row, padded to 4 bytes (uncompressed data); `.max` when it overflows.
    var rowBytes: Int {
        let bits = Int.saturating(width, bitCount)
        return bits == .max ? .max : (bits + 31) / 32 * 4
    }

    /// The most bytes the pixel data can take: every row stored, or, run-length encoded, each
    /// pixel a run of its own (2 bytes) and each row's end-of-line escape.
    var mostPixelBytes: Int {
        switch compression {
        case .none, .bitFields: Int.saturating(rowBytes, height)
        case .rle4, .rle8: Int.saturatingSum(Int.saturating(Int.saturatingSum(Int.saturating(width, 2), 2), height), 2)
        }
    }

    /// Whether pixels carry an alpha channel of their own (bit fields with an alpha mask).
    var hasAlphaMask: Bool { compression != .rle4 && compression != .rle8 && bitCount >= 16 && masks[3] != 0 }

    /// The most bands decoding may produce: 4 when alpha may come (an alpha mask, RLE's skipped
    /// pixels, an icon's AND mask), else 3.
    func maxBands(icon: Bool) -> Int {
        icon || hasAlphaMask || compression == .rle4 || compression == .rle8 ? 4 : 3
    }

    /// The header of a BMP file: the 14-byte file header ("BM", the pixel data offset), then the DIB.
    static func ofFile(_ bytes: LittleEndianBytes) throws(ImagingError) -> BMPHeader {
        guard bytes.u8(0) == 0x42, bytes.u8(1) == 0x4D, let offset = bytes.u32(10) else {
            throw ImagingError(.corruptData, "BMP file header is cut short")
        }
        let header = try parse(bytes, at: 14, pixelOffset: Int(offset), icon: false)
        // A size field may claim more than the file holds when the file is cut short (the pixel
        // data then says so, as truncated data); one claiming more than the header's own image
        // could ever take is a lie (the BMP Suite's badfilesize and badbitssize). 0: not given.
        let most = Int.saturatingSum(header.mostPixelBytes, 16)
        if let fileSize = bytes.u32(2).map(Int.init), fileSize > bytes.count, fileSize > Int.saturatingSum(header.pixelOffset, most) {
            throw ImagingError(.corruptData, "BMP file size field says \(fileSize) bytes, more than its \(header.width)x\(header.height) image needs")
        }
        if let dibSize = bytes.u32(14), dibSize >= 40, let imageSize = bytes.u32(34).map(Int.init),
            imageSize > bytes.count - header.pixelOffset, imageSize > most
        {
            throw ImagingError(.corruptData, "BMP image size field says \(imageSize) bytes, more than its \(header.width)x\(header.height) image needs")
        }
        return header
    }

    /// Whether `bytes` begin like a BMP file: "BM" and a plausible DIB header size (one BMP does
    /// not define is then refused by `parse`, naming it).
    static func looksLikeBMP(_ bytes: LittleEndianBytes) -> Bool {
        guard bytes.u8(0) == 0x42, bytes.u8(1) == 0x4D, let size = bytes.u32(14) else { return false }
        return (12...1024).contains(size)
    }

    static func knownHeaderSize(_ size: Int) -> Bool {
        size == 12 || (16...64).contains(size) || size == 108 || size == 124
    }

    /// The DIB header at `start`. `pixelOffset` is the file header's (nil in an icon, whose
    /// pixels follow the palette); an icon's height counts the AND mask too, and is halved here.
    static func parse(_ bytes: LittleEndianBytes, at start: Int, pixelOffset given: Int?, icon: Bool) throws(ImagingError) -> BMPHeader {
        // Some writers leave the file header's offset 0: the pixels then follow the palette.
        let pixelOffset = given.flatMap { $0 > 0 ? $0 : nil }
        guard let size = bytes.u32(start).map(Int.init) else { throw ImagingError(.corruptData, "BMP header is cut short") }
        guard knownHeaderSize(size) else { throw ImagingError(.corruptData, "BMP header size \(size) is not one BMP defines") }
        guard bytes.contains(start, size) else { throw ImagingError(.truncatedData, "BMP header of \(size) bytes is cut short") }
        let core = size == 12
        let os2 = !core && size != 40 && size != 52 && size != 56 && size != 108 && size != 124
        // A field of an OS/2 2.x header shorter than 64 bytes reads as 0 when left out.
        func field(_ offset: Int) -> UInt32 { offset + 4 <= size ? bytes.u32(start + offset) ?? 0 : 0 }
        let width: Int, rawHeight: Int, planes: Int, bitCount: Int
        if core {
            width = bytes.u16(start + 4) ?? 0
            rawHeight = Int(Int16(truncatingIfNeeded: bytes.u16(start + 6) ?? 0))
            planes = bytes.u16(start + 8) ?? 0
            bitCount = bytes.u16(start + 10) ?? 0
        } else {
            width = Int(Int32(bitPattern: field(4)))
            rawHeight = Int(Int32(bitPattern: field(8)))
            planes = bytes.u16(start + 12) ?? 0
            bitCount = bytes.u16(start + 14) ?? 0
        }
        guard planes == 1 else { throw ImagingError(.corruptData, "BMP planes field is \(planes), not 1") }
        guard width > 0 else { throw ImagingError(.corruptData, "BMP width is \(width)") }
        guard rawHeight != 0, rawHeight != Int(Int32.min) else { throw ImagingError(.corruptData, "BMP height is \(rawHeight)") }
        var height = abs(rawHeight)
        if icon {
            // An icon's DIB counts the AND mask's rows too.
            height /= 2
            guard height > 0 else { throw ImagingError(.corruptData, "icon bitmap height is \(rawHeight)") }
        }
        let topDown = rawHeight < 0
        // Densities past 30,000 dots an inch (the BMP Suite's baddens1 and baddens2) are no
        // device's: the header is not to be trusted.
        for (axis, offset) in [("horizontal", 24), ("vertical", 28)] {
            let density = Int(Int32(bitPattern: field(offset)))
            guard abs(density) <= maxDensity else {
                throw ImagingError(.corruptData, "BMP \(axis) density of \(density) pixels a metre is past any device's")
            }
        }
        let compressionCode = core ? 0 : field(16)
        if !os2, compressionCode == 4 || compressionCode == 5 {
            throw ImagingError(.unsupportedFormat, "BMP holding a \(compressionCode == 4 ? "JPEG" : "PNG") image is not supported")
        }
        guard [1, 2, 4, 8, 16, 24, 32].contains(bitCount) else {
            throw ImagingError(bitCount == 64 ? .unsupportedFormat : .corruptData, "BMP with \(bitCount) bits a pixel is not supported")
        }

        var compression = Compression.none
        switch (compressionCode, bitCount) {
        case (0, _): break
        case (1, 8): compression = .rle8
        case (2, 4): compression = .rle4
        case (3, 1) where os2, (4, 24) where os2:
            throw ImagingError(.unsupportedFormat, "OS/2 BMP compression \(compressionCode) (Huffman or RLE24) is not supported")
        case (3, 16), (3, 32), (6, 16), (6, 32): compression = .bitFields
        case (4, _), (5, _):
            throw ImagingError(.unsupportedFormat, "BMP holding a \(compressionCode == 4 ? "JPEG" : "PNG") image is not supported")
        default:
            throw ImagingError(.corruptData, "BMP compression \(compressionCode) does not fit \(bitCount) bits a pixel")
        }
        if compression == .rle4 || compression == .rle8, topDown {
            throw ImagingError(.corruptData, "a run-length encoded BMP cannot be top-down")
        }

        // Masks: in the header from V2 (52 bytes) on, else after a 40-byte header for bit fields.
        var masks: [UInt32]
        var tableStart = start + size
        switch bitCount {
        case 16: masks = [0x7C00, 0x03E0, 0x001F, 0]
        case 32: masks = [0xFF_0000, 0xFF00, 0xFF, 0]
        default: masks = [0, 0, 0, 0]
        }
        if compression == .bitFields {
            if size >= 52 {
                masks = [field(40), field(44), field(48), size >= 56 ? field(52) : 0]
            } else {
                let count = compressionCode == 6 ? 4 : 3
                guard bytes.contains(tableStart, count * 4) else { throw ImagingError(.truncatedData, "BMP bit-field masks are cut short") }
                masks = (0..<4).map { $0 < count ? bytes.u32(tableStart + $0 * 4) ?? 0 : 0 }
                tableStart += count * 4
            }
            try validate(masks: masks, bitCount: bitCount)
        }

        // The palette: 3-byte entries in a core header, 4 otherwise; only the ones that fit before
        // the pixels are read, and no more than 2^bits.
        var palette: [(UInt8, UInt8, UInt8)] = []
        let entryBytes = core ? 3 : 4
        let declared = core ? 0 : Int(field(32))
        if bitCount <= 8 {
            let wanted = declared == 0 ? 1 << bitCount : declared
            guard wanted <= 1 << 16 else { throw ImagingError(.corruptData, "BMP palette of \(wanted) colours is past any 8-bit image's") }
            let end = pixelOffset ?? min(bytes.count, tableStart + wanted * entryBytes)
            let fitting = max(0, min(end, bytes.count) - tableStart) / entryBytes
            let count = min(wanted, 1 << bitCount, fitting)
            guard count > 0 else { throw ImagingError(.corruptData, "BMP palette is missing") }
            palette.reserveCapacity(count)
            for index in 0..<count {
                let entry = tableStart + index * entryBytes
                palette.append((UInt8(bytes.u8(entry + 2) ?? 0), UInt8(bytes.u8(entry + 1) ?? 0), UInt8(bytes.u8(entry) ?? 0)))
            }
            if pixelOffset == nil { tableStart += wanted * entryBytes }
        } else if pixelOffset == nil {
            // An icon's optional colour table before 16- to 32-bit pixels.
            tableStart += min(declared, 1 << 16) * entryBytes
        }

        let pixels = pixelOffset ?? tableStart
        guard pixels >= start + size else { throw ImagingError(.corruptData, "BMP pixel data offset \(pixels) points into its header") }
        guard pixels < bytes.count else {
            throw ImagingError(.corruptData, "BMP pixel data offset \(pixels) is past the end of the \(bytes.count)-byte file")
        }
        return BMPHeader(
            width: width, height: height, topDown: topDown, bitCount: bitCount, compression: compression, masks: masks,
            palette: palette, pixelOffset: pixels)
    }

    /// 30,000 dots an inch in pixels a metre.
    static let maxDensity = 1_181_102

    /// Masks must lie within the pixel's bits and not overlap, and each colour must have one.
    private static func validate(masks: [UInt32], bitCount: Int) throws(ImagingError) {
        let limit: UInt32 = bitCount == 32 ? .max : (1 << UInt32(bitCount)) - 1
        var seen: UInt32 = 0
        for (index, mask) in masks.enumerated() {
            guard mask != 0 || index == 3 else {
                throw ImagingError(.corruptData, "BMP bit-field mask for \(["red", "green", "blue"][index]) is empty")
            }
            guard mask & ~limit == 0 else {
                throw ImagingError(.corruptData, "BMP bit-field mask 0x\(String(mask, radix: 16)) is past \(bitCount) bits")
            }
            guard mask & seen == 0 else { throw ImagingError(.corruptData, "BMP bit-field masks overlap") }
            seen |= mask
        }
    }
}
