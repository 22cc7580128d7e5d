import Foundation
import Testing

@testable import VignetteCodecs

/// `TurboJPEG` owns one TurboJPEG handle; its failures are of the kind they are, with TurboJPEG's
/// message (`tjGetErrorStr2`) and code (`tjGetErrorCode`).
@Suite("TurboJPEG: one handle an object, failures with TurboJPEG's message and code")
struct TurboJPEGTests {
    @Test("A refused encode is an operation that failed (not corrupt data), with its message and TJERR_FATAL")
    func turboJPEGEncode() throws {
        let pixels = PNGWriterTests.pixels(width: 16, height: 8, bands: 3)
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: pixels.bytes.count, alignment: 16)
        defer { raw.deallocate() }
        raw.copyBytes(from: pixels.bytes)
        let error = expectImagingError("quality 101") { () throws(ImagingError) in
            try TurboJPEG.encode(pixels: UnsafeRawBufferPointer(raw), width: 16, height: 8, bands: 3, quality: 101)
        }
        #expect(error?.kind == .operationFailed)
        #expect(error?.code == .turboJPEG(1), "TJERR_FATAL")
        #expect(error?.message.contains("TurboJPEG tjCompress2: ") == true)
        #expect(error?.message.contains("Invalid argument") == true, "TurboJPEG's own words: \(String(describing: error))")
    }

    @Test("A file that ends early is truncated data, stopped at libjpeg's warning (TJERR_WARNING)")
    func turboJPEGTruncated() throws {
        let data = try Data(contentsOf: TestFiles.fixture("cut-short.jpg"))
        let header = try #require(TurboJPEG.header(of: data))
        let error = expectImagingError("cut short") { () throws(ImagingError) in
            _ = try TurboJPEG.decodePlanes(data, header: header, denominator: 1)
        }
        #expect(error?.kind == .truncatedData)
        #expect(error?.code == .turboJPEG(0), "TJERR_WARNING")
        #expect(error?.message.lowercased().contains("premature end") == true, "libjpeg's words: \(String(describing: error))")
        // libvips' loader reads the same file to the same kind.
        let viaVips = expectImagingError("cut short, libvips") { () throws(ImagingError) in
            _ = try ImageDecoder(limits: .untrusted).decode(data).materialized()
        }
        #expect(viaVips?.kind == error?.kind)
    }

    @Test("Handles are made for each role and released with their owner")
    func turboJPEGHandles() throws {
        weak var released: TurboJPEG?
        try {
            let decompressor = try TurboJPEG(.decompressor)
            released = decompressor
            _ = try TurboJPEG(.compressor)
        }()
        #expect(released == nil)
    }
}
