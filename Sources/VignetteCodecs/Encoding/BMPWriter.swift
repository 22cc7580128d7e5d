#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// BMP files written by Vignette: libvips 8.14 writes BMP only through ImageMagick
/// (`magicksave`), which Vignette blocks as untrusted.
///
/// What it writes, uncompressed, rows bottom-up, each padded to a multiple of 4 bytes, 72 dpi:
/// - opaque images (grey expanded): 24-bit BGR after a `BITMAPINFOHEADER` (40 bytes, `BI_RGB`);
/// - images with alpha: 32-bit BGRA after a `BITMAPV4HEADER` (108 bytes, `BI_BITFIELDS` with an
///   alpha mask, colour space `sRGB`), which browsers, Pillow and ImageMagick read with alpha.
enum BMPWriter {
    /// The size of the file header (`BITMAPFILEHEADER`).
    static let fileHeaderSize = 14

    /// `pixels` (1–4 bands of 8 bits) as a BMP file; `.invalidArgument` when the file would pass
    /// the 4 GiB a BMP's 32-bit sizes can say.
    static func encode(_ pixels: PixelBuffer) throws(ImagingError) -> Data {
        let width = pixels.width, height = pixels.height, bands = pixels.bands
        guard width > 0, height > 0, (1...4).contains(bands), pixels.bytes.count == Int.saturating(width, height, bands) else {
            throw ImagingError(.invalidArgument, "the BMP writer takes 1-4 bands of 8 bits, got \(width)x\(height)x\(bands)")
        }
        let alpha = bands == 2 || bands == 4
        let outBytes = alpha ? 4 : 3
        let infoSize = alpha ? 108 : 40
        let rowBytes = (Int.saturating(width, outBytes) + 3) / 4 * 4
        let offset = fileHeaderSize + infoSize
        let imageBytes = Int.saturating(rowBytes, height)
        let fileSize = Int.saturatingSum(offset, imageBytes)
        guard fileSize <= Int(UInt32.max), width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ImagingError(.invalidArgument, "a \(width)x\(height) image is past what a BMP file can hold (4 GiB)")
        }

        var file = Data(count: fileSize)
        file.withUnsafeMutableBytes { raw in
            guard let out = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var header = HeaderWriter(base: out)
            // BITMAPFILEHEADER
            header.bytes([0x42, 0x4D])  // "BM"
            header.uint32(fileSize)
            header.uint32(0)  // two reserved 16-bit fields
            header.uint32(offset)
            // BITMAPINFOHEADER, or the start of a BITMAPV4HEADER
            header.uint32(infoSize)
            header.uint32(width)
            header.uint32(height)  // positive: rows bottom-up
            header.uint16(1)  // planes
            header.uint16(outBytes * 8)
            header.uint32(alpha ? 3 : 0)  // BI_BITFIELDS or BI_RGB
            header.uint32(imageBytes)
            header.uint32(2835)  // 72 dpi, in pixels a metre
            header.uint32(2835)
            header.uint32(0)  // colours used
            header.uint32(0)  // important colours
            if alpha {
                header.uint32(0x00FF_0000)  // red mask
                header.uint32(0x0000_FF00)  // green
                header.uint32(0x0000_00FF)  // blue
                header.uint32(0xFF00_0000)  // alpha
                header.uint32(0x7352_4742)  // LCS_sRGB ("sRGB")
                // The CIEXYZTRIPLE endpoints and the three gammas (48 bytes) stay zero: unused for sRGB.
            }
            pixels.bytes.withUnsafeBufferPointer { source in
                guard let source = source.baseAddress else { return }
                for row in 0..<height {
                    let from = source + row * width * bands
                    let to = out + offset + (height - 1 - row) * rowBytes
                    copyRow(from, to, width: width, bands: bands)
                }
            }
        }
        return file
    }

    /// One row of `bands`-band pixels as BGR (1 or 3 bands) or BGRA (2 or 4); the padding stays zero.
    private static func copyRow(_ from: UnsafePointer<UInt8>, _ to: UnsafeMutablePointer<UInt8>, width: Int, bands: Int) {
        switch bands {
        case 1:
            for x in 0..<width {
                let grey = from[x]
                to[3 * x] = grey; to[3 * x + 1] = grey; to[3 * x + 2] = grey
            }
        case 2:
            for x in 0..<width {
                let grey = from[2 * x]
                to[4 * x] = grey; to[4 * x + 1] = grey; to[4 * x + 2] = grey; to[4 * x + 3] = from[2 * x + 1]
            }
        case 3:
            for x in 0..<width {
                to[3 * x] = from[3 * x + 2]; to[3 * x + 1] = from[3 * x + 1]; to[3 * x + 2] = from[3 * x]
            }
        default:
            for x in 0..<width {
                to[4 * x] = from[4 * x + 2]; to[4 * x + 1] = from[4 * x + 1]; to[4 * x + 2] = from[4 * x]
                to[4 * x + 3] = from[4 * x + 3]
            }
        }
    }
}

/// Writes little-endian header fields one after another into a buffer with room for them.
struct HeaderWriter {
    private var cursor: UnsafeMutablePointer<UInt8>

    init(base: UnsafeMutablePointer<UInt8>) { cursor = base }

    mutating func bytes(_ values: [UInt8]) {
        for value in values {
            cursor.pointee = value
            cursor += 1
        }
    }

    /// The low 16 bits of `value`.
    mutating func uint16(_ value: Int) {
        bytes([UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)])
    }

    /// The low 32 bits of `value`.
    mutating func uint32(_ value: Int) {
        bytes([UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
               UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)])
    }
}
