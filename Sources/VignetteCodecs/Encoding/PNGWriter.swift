#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteDeflate

/// PNG files written with libdeflate's zlib compressor (`libdeflate_zlib_compress`) over the
/// whole image at once, where libvips' `vips_pngsave` streams rows through libpng and zlib's
/// `deflate`: several times faster at thumbnail sizes, each file a little smaller
/// (docs/performance.md).
///
/// It writes what `vips_pngsave` writes with metadata stripped and its default filter (none):
/// the signature, IHDR (8 bits a sample; grey, grey + alpha, RGB or RGBA; not interlaced), one
/// IDAT holding every row with filter type 0, and IEND, each chunk with its CRC-32
/// (`libdeflate_crc32`). Whatever else a PNG is to carry (a profile, metadata) and images
/// larger than `maximumPixelBytes`, which are better streamed, take libvips' saver.
enum PNGWriter {
    /// The largest image (pixel bytes) written here, 16 MiB (a 2048×2048 RGBA image): the pixels,
    /// their filtered copy and the compressed stream are all in memory at once, at most 48 MiB
    /// more than libvips' saver, which streams, needs (the budget `DecodingCost.ofEncoding` checks
    /// counts a PNG encode as streamed). Thumbnails are far smaller; larger images stream.
    static let maximumPixelBytes = 16 << 20

    /// Whether `pixels` can be written here: 1–4 bands of 8 bits, at most `maximumPixelBytes`.
    static func applies(width: Int, height: Int, bands: Int) -> Bool {
        (1...4).contains(bands) && width > 0 && height > 0
            && Int.saturating(width, height, bands) <= maximumPixelBytes
    }

    /// `pixels` as a PNG file at zlib `compression` level 0–9 (the scale libdeflate shares).
    static func encode(_ pixels: PixelBuffer, compression: Int) throws(ImagingError) -> Data {
        try ImageEncoder.check(compression, in: 0...9, "PNG compression")
        guard applies(width: pixels.width, height: pixels.height, bands: pixels.bands),
            pixels.bytes.count == pixels.width * pixels.height * pixels.bands
        else {
            throw ImagingError(.invalidArgument, "the PNG writer takes 1-4 bands of at most \(maximumPixelBytes) bytes")
        }
        let rowBytes = pixels.width * pixels.bands
        let filteredCount = (rowBytes + 1) * pixels.height
        // Every row behind its filter-type byte, 0 (none).
        let filtered = [UInt8](unsafeUninitializedCapacity: filteredCount) { buffer, count in
            pixels.bytes.withUnsafeBufferPointer { source in
                guard let source = source.baseAddress, let target = buffer.baseAddress else { return }
                for row in 0..<pixels.height {
                    let line = target + row * (rowBytes + 1)
                    line.initialize(to: 0)
                    (line + 1).initialize(from: source + row * rowBytes, count: rowBytes)
                }
            }
            count = filteredCount
        }

        guard let compressor = libdeflate_alloc_compressor(Int32(compression)) else {
            throw ImagingError(.limitExceeded, "libdeflate_alloc_compressor(\(compression)) failed: out of memory")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, filteredCount)

        var file = [UInt8]()
        file.reserveCapacity(8 + 25 + 12 + bound + 12)
        file += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let colourType: UInt8 = [0, 4, 2, 6][pixels.bands - 1]
        var header = [UInt8]()
        header.appendBigEndian(UInt32(pixels.width))
        header.appendBigEndian(UInt32(pixels.height))
        header += [8, colourType, 0, 0, 0]  // depth, colour type, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &file)

        // IDAT: its length, type, the zlib stream compressed in place, its CRC.
        let idatStart = file.count
        file.appendBigEndian(0)
        file += Array("IDAT".utf8)
        file += [UInt8](repeating: 0, count: bound)
        let written = file.withUnsafeMutableBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return filtered.withUnsafeBytes { input in
                libdeflate_zlib_compress(compressor, input.baseAddress, filteredCount, base + idatStart + 8, bound)
            }
        }
        guard written > 0, written <= Int(Int32.max) else {
            throw ImagingError(.operationFailed, "libdeflate_zlib_compress produced nothing for \(filteredCount) bytes")
        }
        file.removeLast(bound - written)
        file.replaceBigEndian(UInt32(written), at: idatStart)
        file.appendBigEndian(crc(of: file[(idatStart + 4)...]))
        appendChunk("IEND", [], to: &file)
        return Data(file)
    }

    /// A chunk: the data's length, the type, the data, and the CRC-32 of type and data.
    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        file.appendBigEndian(UInt32(data.count))
        let start = file.count
        file += Array(type.utf8)
        file += data
        file.appendBigEndian(crc(of: file[start...]))
    }

    private static func crc(of bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    fileprivate mutating func replaceBigEndian(_ value: UInt32, at index: Int) {
        self[index] = UInt8(value >> 24)
        self[index + 1] = UInt8((value >> 16) & 0xFF)
        self[index + 2] = UInt8((value >> 8) & 0xFF)
        self[index + 3] = UInt8(value & 0xFF)
    }
}
