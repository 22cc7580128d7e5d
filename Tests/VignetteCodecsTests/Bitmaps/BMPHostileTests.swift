import Foundation
import Testing
import VignetteCodecs

/// BMP files written byte by byte whose header lies: sizes, offsets, palette counts, RLE runs.
@Suite("BMP: lying headers refused from the header, with a typed error naming the fault")
struct BMPHostileTests {
    /// A BMP file: file header, a 40-byte info header, `palette` (BGRA entries), then `pixels`.
    static func bmp(
        width: Int32, height: Int32, bits: UInt16, compression: UInt32 = 0, colours: UInt32 = 0, planes: UInt16 = 1,
        palette: [UInt8] = [], pixels: [UInt8], offset: UInt32? = nil
    ) -> Data {
        func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let start = UInt32(14 + 40 + palette.count)
        var bytes: [UInt8] = Array("BM".utf8) + le(UInt32(Int(start) + pixels.count)) + le(UInt32(0)) + le(offset ?? start)
        bytes += le(UInt32(40)) + le(width) + le(height) + le(planes) + le(bits) + le(compression) + le(UInt32(pixels.count))
        bytes += le(Int32(2835)) + le(Int32(2835)) + le(colours) + le(UInt32(0))
        return Data(bytes + palette + pixels)
    }

    static let greys: [UInt8] = (0..<256).flatMap { [UInt8($0), UInt8($0), UInt8($0), 0] }

    static func refusal(_ data: Data, limits: DecodingLimits = .untrusted) -> ImagingError? {
        expectImagingError { () throws(ImagingError) in try ImageDecoder(limits: limits).decode(data) }
    }

    @Test("A well-formed hand-made file decodes: bottom-up 8-bit palette, top-down 24-bit, RLE8 with a delta")
    func wellFormed() throws {
        let palette = try ImageDecoder().decode(Self.bmp(width: 3, height: 2, bits: 8, palette: Self.greys, pixels: [10, 20, 30, 0, 40, 50, 60, 0]))
        #expect(try palette.pixels().bytes == [40, 40, 40, 50, 50, 50, 60, 60, 60, 10, 10, 10, 20, 20, 20, 30, 30, 30])
        let topDown = try ImageDecoder().decode(Self.bmp(width: 1, height: -2, bits: 24, pixels: [1, 2, 3, 0, 4, 5, 6, 0]))
        #expect(try topDown.pixels().bytes == [3, 2, 1, 6, 5, 4])
        // Row 0 (bottom): 2 × index 7, then a delta of (0, 1) onto the top row, 1 × index 9, end.
        let rle = try ImageDecoder().decode(Self.bmp(
            width: 3, height: 2, bits: 8, compression: 1, palette: Self.greys, pixels: [2, 7, 0, 2, 0, 1, 1, 9, 0, 1]))
        #expect(try rle.pixels().bytes == [0, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9, 255, 7, 7, 7, 255, 7, 7, 7, 255, 0, 0, 0, 0])
    }

    @Test("Lying headers: each refused with its kind and the field named")
    func lying() {
        let cases: [(Data, ImagingError.Kind, String)] = [
            // 60,000 × 60,000 in 70 bytes: over the pixel budget, before anything is read.
            (Self.bmp(width: 60000, height: 60000, bits: 24, pixels: [0, 0, 0, 0]), .limitExceeded, "60000x60000"),
            // 5,000 × 5,000 24-bit in a few bytes: cut short, found before a pixel is allocated.
            (Self.bmp(width: 5000, height: 5000, bits: 24, pixels: [0, 0, 0, 0]), .truncatedData, "cut short"),
            (Self.bmp(width: -4, height: 4, bits: 24, pixels: [0]), .corruptData, "width"),
            (Self.bmp(width: 4, height: 0, bits: 24, pixels: [0]), .corruptData, "height"),
            (Self.bmp(width: 4, height: Int32.min, bits: 24, pixels: [0]), .corruptData, "height"),
            (Self.bmp(width: 4, height: 4, bits: 24, planes: 3, pixels: [0]), .corruptData, "planes"),
            (Self.bmp(width: 4, height: 4, bits: 7, pixels: [0]), .corruptData, "bits"),
            (Self.bmp(width: 4, height: 4, bits: 8, colours: 1_000_000, palette: Self.greys, pixels: [0]), .corruptData, "palette"),
            (Self.bmp(width: 4, height: 4, bits: 24, pixels: [0], offset: 5000), .corruptData, "offset"),
            (Self.bmp(width: 4, height: 4, bits: 24, pixels: [0], offset: 20), .corruptData, "offset"),
            (Self.bmp(width: 4, height: 4, bits: 24, compression: 1, pixels: [0]), .corruptData, "compression"),
            // RLE8: a run of 5 in a row of 4; a run after the last row; a delta past the image; an absolute run past the row.
            (Self.bmp(width: 4, height: 1, bits: 8, compression: 1, palette: Self.greys, pixels: [5, 1, 0, 1]), .corruptData, "past the end of row"),
            (Self.bmp(width: 4, height: 1, bits: 8, compression: 1, palette: Self.greys, pixels: [0, 0, 2, 1, 0, 1]), .corruptData, "last row"),
            (Self.bmp(width: 4, height: 1, bits: 8, compression: 1, palette: Self.greys, pixels: [0, 2, 9, 0, 0, 1]), .corruptData, "delta"),
            (Self.bmp(width: 4, height: 1, bits: 8, compression: 1, palette: Self.greys, pixels: [0, 6, 1, 2, 3, 4, 5, 6, 0, 1]), .corruptData, "past the end of row"),
            // RLE4 ending with no end-of-bitmap while rows remain; indices past a 2-colour palette.
            (Self.bmp(width: 4, height: 3, bits: 4, compression: 2, palette: Array(Self.greys.prefix(64)), pixels: [4, 0x12]), .truncatedData, "ends before"),
            (Self.bmp(width: 2, height: 1, bits: 8, colours: 2, palette: Array(Self.greys.prefix(8)), pixels: [0, 200, 0, 0]), .corruptData, "palette"),
        ]
        for (data, kind, words) in cases {
            let error = Self.refusal(data)
            #expect(error?.kind == kind, "\(words): \(String(describing: error))")
            #expect(error?.message.contains(words) == true, "\(words): \(String(describing: error))")
            let probe = expectImagingError { () throws(ImagingError) in
                try Thumbnailer(options: ThumbnailOptions(width: 16, height: 16)).thumbnail(data)
            }
            #expect(probe?.kind == kind, "thumbnail, \(words): \(String(describing: probe))")
        }
    }

    @Test("The budget is checked from the header with the memory the decode needs (4 bands for RLE)")
    func budget() {
        var limits = DecodingLimits.untrusted
        limits.maxMemoryBytes = 1 << 20
        // 600 × 600 RLE8 that ends at once: 1.4 MB of RGBA, refused though the file is 1 KB.
        let data = Self.bmp(width: 600, height: 600, bits: 8, compression: 1, palette: Self.greys, pixels: [0, 1])
        let error = Self.refusal(data, limits: limits)
        #expect(error?.kind == .limitExceeded && error?.message.contains("memory") == true, "\(String(describing: error))")
    }
}
