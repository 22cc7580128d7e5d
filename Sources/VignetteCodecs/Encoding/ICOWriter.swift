#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// ICO files written by Vignette: one image, stored as a PNG (which ICO allows since Windows
/// Vista, and browsers read), in the container: `ICONDIR` (6 bytes), one `ICONDIRENTRY`
/// (16 bytes), then the PNG.
///
/// ICO's entry holds each side in one byte (0 meaning 256), so an icon is at most 256×256: a
/// larger image is refused with `.invalidArgument` before any pixel is decoded, as imgproxy does,
/// rather than scaled behind the caller's back; resize it first (`rs:fit:256:256`,
/// `--size 256`). The PNG is 8-bit RGBA (an opaque image gets an opaque alpha band), the form
/// every ICO reader takes, written by `PNGWriter`; its colours are converted to sRGB first (ICO
/// readers ignore a profile).
enum ICOWriter {
    /// The longest side an ICO entry can say.
    static let maximumSide = 256

    /// `.invalidArgument` for an image over `maximumSide` a side.
    static func checkSize(of image: Image) throws(ImagingError) {
        guard image.width <= maximumSide, image.height <= maximumSide else {
            throw ImagingError(
                .invalidArgument,
                "ICO holds at most \(maximumSide)x\(maximumSide) pixels, the image is \(image.width)x\(image.height): resize it first")
        }
    }

    static func encode(_ image: Image, cancellation: ImagingCancellation?) throws(ImagingError) -> Data {
        try checkSize(of: image)
        let pixels = try image.materialized(cancellation: cancellation).convertedToSRGB().pixels()
        let png = try PNGWriter.encode(rgba(pixels), compression: 6)
        var file = Data(capacity: 22 + png.count)
        var header = [UInt8](repeating: 0, count: 22)
        header.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var writer = HeaderWriter(base: base)
            // ICONDIR: reserved, type 1 (icon), one image.
            writer.uint16(0)
            writer.uint16(1)
            writer.uint16(1)
            // ICONDIRENTRY: width and height (0 means 256), no palette, reserved, 1 plane,
            // 32 bits a pixel, the PNG's size and where it starts.
            writer.bytes([UInt8(pixels.width % 256), UInt8(pixels.height % 256), 0, 0])
            writer.uint16(1)
            writer.uint16(32)
            writer.uint32(png.count)
            writer.uint32(22)
        }
        file.append(contentsOf: header)
        file.append(png)
        return file
    }

    /// `pixels` as RGBA: grey expanded, an opaque alpha band added where there is none.
    static func rgba(_ pixels: PixelBuffer) -> PixelBuffer {
        if pixels.bands == 4 { return pixels }
        let count = pixels.width * pixels.height
        var out = [UInt8](repeating: 255, count: count * 4)
        let source = pixels.bytes, bands = pixels.bands
        for index in 0..<count {
            let at = index * bands
            switch bands {
            case 1:
                out[4 * index] = source[at]; out[4 * index + 1] = source[at]; out[4 * index + 2] = source[at]
            case 2:
                out[4 * index] = source[at]; out[4 * index + 1] = source[at]; out[4 * index + 2] = source[at]
                out[4 * index + 3] = source[at + 1]
            default:
                out[4 * index] = source[at]; out[4 * index + 1] = source[at + 1]; out[4 * index + 2] = source[at + 2]
            }
        }
        return PixelBuffer(width: pixels.width, height: pixels.height, bands: 4, bytes: out)
    }
}
