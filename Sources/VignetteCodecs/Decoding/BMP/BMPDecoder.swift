internal import CVignetteImageShims
internal import CVignetteVips

/// Decodes a BMP image's pixels (its header read by `BMPHeader`) into 8-bit sRGB, 3 bands or 4
/// with alpha, top row first, straight into the memory of a libvips image
/// (`Image(width:height:bands:…writingPixels:)`, `vips_image_new_memory`).
///
/// `analyse()` reads only the bytes, allocating nothing: it finds the bands the image will have
/// and refuses damaged data (RLE runs past a row or the image, pixel data cut short, palette
/// indices past the palette) before `decode()` allocates a pixel. `DecodingLimits.failOn` `.none`
/// lets cut-short data through (the missing rows black and transparent) and paints indices
/// past the palette black.
///
/// Alpha, decided as browsers and Pillow do:
/// - 32-bit BI_RGB: the fourth byte is unused (opaque), as the format defines;
/// - bit fields with an alpha mask (BI_ALPHABITFIELDS, V3–V5 headers): the alpha, unless every
///   pixel's alpha is 0, which writers that leave the byte empty make: then opaque;
/// - RLE: pixels the runs skip (delta and end-of-line escapes) are transparent;
/// - an icon's bitmap (`icon`): 32-bit pixels' fourth byte, or, when that is 0 everywhere, the
///   1-bit AND mask that follows the pixels (missing: opaque).
struct BMPDecoder {
    let bytes: LittleEndianBytes
    let header: BMPHeader
    let failOn: FailOn
    /// An icon's bitmap: an AND mask follows the pixels, and 32-bit pixels carry alpha.
    let icon: Bool

    struct Analysis: Equatable {
        /// 3 (RGB) or 4 (RGBA).
        var bands: Int
        /// Whether alpha comes from the pixels' own bits (else from skipped RLE pixels or the AND mask).
        var pixelAlpha: Bool
    }

    /// The alpha mask pixels are read with: the header's, or the fourth byte of an icon's 32-bit pixels.
    var alphaMask: UInt32 {
        if header.compression == .rle4 || header.compression == .rle8 || header.bitCount < 16 { return 0 }
        if header.masks[3] != 0 { return header.masks[3] }
        return icon && header.bitCount == 32 ? 0xFF00_0000 : 0
    }

    /// Whether 32-bit pixels are BGRX or BGRA bytes (the default masks, any alpha in the fourth
    /// byte), which `BMPByteOrderRows` moves a word at a time.
    private var bytewise: Bool {
        header.masks[0] == 0xFF_0000 && header.masks[1] == 0xFF00 && header.masks[2] == 0xFF
            && (alphaMask == 0 || alphaMask == 0xFF00_0000)
    }

    /// Bytes of a row that hold pixels (the last row needs no padding).
    private var usedRowBytes: Int { (Int.saturating(header.width, header.bitCount) + 7) / 8 }

    /// What decoding will make, from the bytes alone; throws for damaged data.
    func analyse() throws(ImagingError) -> Analysis {
        switch header.compression {
        case .rle4, .rle8:
            let walk = try walkRLE(into: nil, bands: 4)
            return Analysis(bands: icon || walk.skipped > 0 ? 4 : 3, pixelAlpha: false)
        case .none, .bitFields:
            let rowBytes = header.rowBytes
            let needed = Int.saturatingSum(Int.saturating(rowBytes, header.height - 1), usedRowBytes)
            let available = bytes.count - header.pixelOffset
            if available < needed, failOn != .none {
                throw ImagingError(.truncatedData, "BMP pixel data is cut short: \(available) of \(needed) bytes")
            }
            let alpha = alphaMask != 0 && anyAlpha(mask: alphaMask)
            return Analysis(bands: icon || alpha ? 4 : 3, pixelAlpha: alpha)
        }
    }

    /// Whether any stored pixel has a nonzero value under `mask` (16- or 32-bit pixels). Only the
    /// rows the data holds are read: a header may claim millions more (a probe reads no budget).
    private func anyAlpha(mask: UInt32) -> Bool {
        let step = header.bitCount / 8
        for row in 0..<header.height {
            let start = Int.saturatingSum(header.pixelOffset, Int.saturating(row, header.rowBytes))
            guard start < bytes.count else { break }
            let count = min(header.width, max(0, bytes.count - start) / step)
            for x in 0..<count {
                let at = start + x * step
                let pixel = step == 4 ? bytes.u32(at) ?? 0 : UInt32(bytes.u16(at) ?? 0)
                if pixel & mask != 0 { return true }
            }
        }
        return false
    }

    /// The decoded image, `analysis` being `analyse()`'s.
    func decode(_ analysis: Analysis) throws(ImagingError) -> Image {
        let width = header.width, height = header.height, bands = analysis.bands
        var badIndex = false
        let image = try Image(width: width, height: height, bands: bands, interpretation: VIPS_INTERPRETATION_sRGB) {
            (output: UnsafeMutableRawBufferPointer) throws(ImagingError) in
            guard let out = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            switch header.compression {
            case .rle4, .rle8:
                if bands == 4 { output.initializeMemory(as: UInt8.self, repeating: 0) }
                _ = try walkRLE(into: out, bands: bands)
            case .none, .bitFields:
                // Made once: a channel's table has up to 65,536 entries.
                let channels = header.bitCount >= 16
                    ? header.masks[0..<3].map(BMPChannel.init(mask:)) + [BMPChannel(mask: analysis.pixelAlpha ? alphaMask : 0)] : []
                for row in 0..<height {
                    let stored = header.topDown ? row : height - 1 - row
                    let line = out + row * width * bands
                    badIndex = decodeRow(stored: stored, into: line, bands: bands, pixelAlpha: analysis.pixelAlpha, channels: channels) || badIndex
                }
            }
            // An RLE bitmap's end is not known from its header: its mask is not looked for.
            if icon, !analysis.pixelAlpha, header.compression == .none || header.compression == .bitFields { applyANDMask(out) }
        }
        if badIndex, failOn != .none {
            throw ImagingError(.corruptData, "BMP pixels use colours past its palette of \(header.palette.count)")
        }
        return image
    }

    /// One stored row into `line`; true when an index was past the palette. A row the data does
    /// not hold comes out black (and transparent with 4 bands).
    private func decodeRow(
        stored: Int, into line: UnsafeMutablePointer<UInt8>, bands: Int, pixelAlpha: Bool, channels: [BMPChannel]
    ) -> Bool {
        let width = header.width
        let start = header.pixelOffset + stored * header.rowBytes
        guard bytes.contains(start, usedRowBytes), let base = bytes.raw.baseAddress else {
            line.initialize(repeating: 0, count: width * bands)
            return false
        }
        let source = base.assumingMemoryBound(to: UInt8.self) + start
        switch header.bitCount {
        case 24:
            if bands == 3 {
                BMPByteOrderRows.bgrToRGB(source, line, width: width)
            } else {
                BMPByteOrderRows.toRGBA(source, line, width: width, step: 3, alpha: false)
            }
        case 32 where bytewise:
            if bands == 3 {
                BMPByteOrderRows.bgrxToRGB(source, line, width: width)
            } else {
                BMPByteOrderRows.toRGBA(source, line, width: width, step: 4, alpha: pixelAlpha)
            }
        case 16, 32:
            guard channels.count == 4 else { return false }
            let red = channels[0], green = channels[1], blue = channels[2], alpha = channels[3]
            let wide = header.bitCount == 32
            for x in 0..<width {
                let s = source + x * (wide ? 4 : 2)
                var pixel = UInt32(s[0]) | UInt32(s[1]) << 8
                if wide { pixel |= UInt32(s[2]) << 16 | UInt32(s[3]) << 24 }
                let d = line + x * bands
                d[0] = red.value(pixel)
                d[1] = green.value(pixel)
                d[2] = blue.value(pixel)
                if bands == 4 { d[3] = pixelAlpha ? alpha.value(pixel) : 255 }
            }
        default:
            return decodeIndexedRow(source, into: line, bands: bands)
        }
        return false
    }

    /// A row of 1-, 2-, 4- or 8-bit palette indices; true when one was past the palette.
    private func decodeIndexedRow(_ source: UnsafePointer<UInt8>, into line: UnsafeMutablePointer<UInt8>, bands: Int) -> Bool {
        let bits = header.bitCount, perByte = 8 / bits, mask = (1 << bits) - 1
        let palette = header.palette
        var bad = false
        if bits == 8 {
            // The common case, through a flat table of 256 colours (black past the palette).
            var table = [UInt8](repeating: 0, count: 768)
            for (index, colour) in palette.enumerated() { (table[index * 3], table[index * 3 + 1], table[index * 3 + 2]) = colour }
            let count = palette.count
            table.withUnsafeBufferPointer { table in
                for x in 0..<header.width {
                    let index = Int(source[x])
                    if index >= count { bad = true }
                    let d = line + x * bands, t = index * 3
                    d[0] = table[t]
                    d[1] = table[t + 1]
                    d[2] = table[t + 2]
                    if bands == 4 { d[3] = 255 }
                }
            }
            return bad
        }
        for x in 0..<header.width {
            let byte = Int(source[x / perByte])
            let index = (byte >> (8 - bits - (x % perByte) * bits)) & mask
            let d = line + x * bands
            if index < palette.count {
                (d[0], d[1], d[2]) = palette[index]
            } else {
                (d[0], d[1], d[2]) = (0, 0, 0)
                bad = true
            }
            if bands == 4 { d[3] = 255 }
        }
        return bad
    }

    /// An icon's AND mask (1 bit a pixel, rows padded to 4 bytes, after the pixels, in their
    /// order): a set bit makes the pixel transparent. Rows it lacks stay opaque.
    private func applyANDMask(_ out: UnsafeMutablePointer<UInt8>) {
        let width = header.width, height = header.height
        let maskRow = (width + 31) / 32 * 4
        let maskStart = header.pixelOffset + Int.saturating(header.rowBytes, height)
        for row in 0..<height {
            let stored = header.topDown ? row : height - 1 - row
            let start = maskStart + stored * maskRow
            guard bytes.contains(start, (width + 7) / 8), let base = bytes.raw.baseAddress else { continue }
            let source = base.assumingMemoryBound(to: UInt8.self) + start
            let line = out + row * width * 4
            for x in 0..<width where source[x >> 3] & (0x80 >> UInt8(x & 7)) != 0 {
                line[x * 4 + 3] = 0
            }
        }
    }
}
