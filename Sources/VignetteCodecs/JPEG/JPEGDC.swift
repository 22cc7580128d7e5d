#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
internal import CVignetteJPEGDC

/// JPEGs decoded at 1/8 from each block's DC coefficient only (`CVignetteJPEGDC`): at
/// that scale libjpeg-turbo's 1×1 IDCT reads nothing else, yet it entropy-decodes every AC
/// coefficient. A sequential Huffman file goes through Vignette's DC-only entropy decoder, which
/// writes the planes itself; a progressive Huffman file is handed to libjpeg-turbo as a copy with
/// only its DC scans. Both give exactly `TurboJPEG.decodePlanes` at 1/8 over every block of the
/// picture, and decline (nil) anything unusual or damaged, which the caller then decodes with
/// libjpeg-turbo's whole decoder: a file's verdict never depends on which path ran.
///
/// One difference is known and allowed for: the copy of a progressive file leaves out its AC
/// scans' entropy-coded data, so damage inside that data (a bad Huffman code, a scan cut short
/// between intact markers), which libjpeg-turbo decodes with a warning, goes unseen. libvips
/// decodes such a file anyway below `FailOn.warning` (the planar route falls back to it on any
/// warning), so the verdict is the same; at `FailOn.warning` the caller leaves progressive files
/// to libjpeg-turbo (`progressive: false`).
///
/// At 1/4 and 1/2 a sequential Huffman file goes through Vignette's reduced-scale decoder
/// (`JPEGDC+Scaled.swift`): every AC symbol decoded, only the coefficients libjpeg-turbo's reduced
/// IDCT reads kept, and that IDCT run with libjpeg-turbo's integers; a progressive file through its
/// progressive twin, which decodes every scan into a store of those coefficients.
///
/// Called by the planar route only, after the decoding budget has accepted the header: the planes
/// are the ones `TurboJPEG.decodePlanes` would allocate, and the C side allocates no more than the
/// input's length.
package enum JPEGDC {
    /// Which path a file takes.
    package enum Kind: Equatable, Sendable {
        case none, sequential, progressive
    }

    /// The path `data` would take, from its markers up to the frame header.
    package static func kind(of data: Data) -> Kind {
        let kind = data.withUnsafeBytes { raw in vgn_jpeg_dc_kind(raw.bindMemory(to: UInt8.self).baseAddress, raw.count) }
        switch Int(kind) {
        case VGN_JPEG_DC_KIND_SEQUENTIAL: return .sequential
        case VGN_JPEG_DC_KIND_PROGRESSIVE: return .progressive
        default: return .none
        }
    }

    /// `data` at 1/`denominator` (8, 4 or 2) as `TurboJPEG.decodePlanes(data, header: header,
    /// denominator: denominator)` decodes it, or nil when no own path takes it; progressive files
    /// at 1/8 (their DC scans) only when `progressive`; at 1/4 and 1/2 the own decoder reads every
    /// scan, so it sees what libjpeg-turbo sees.
    static func decodePlanes(_ data: Data, header: TurboJPEG.Header, denominator: Int = 8, progressive: Bool = true) -> YCbCrPlanes? {
        guard header.isPlanar else { return nil }
        switch (kind(of: data), denominator) {
        case (.sequential, 8): return decodeSequential(data, header: header)
        case (.sequential, 4), (.sequential, 2): return decodeScaled(data, header: header, denominator: denominator)
        case (.progressive, 8): return progressive ? decodeProgressive(data, header: header) : nil
        case (.progressive, 4), (.progressive, 2): return decodeScaled(data, header: header, denominator: denominator, progressive: true)
        default: return nil
        }
    }

    /// The DC-only entropy decoder's planes, or nil when it declined.
    static func decodeSequential(_ data: Data, header: TurboJPEG.Header) -> YCbCrPlanes? {
        ownPlanes(data, header: header, denominator: 8) { jpeg, count, planes, strides, widths, heights in
            vgn_jpeg_dc_decode(jpeg.baseAddress, jpeg.count, count, planes, strides, widths, heights)
        }
    }

    /// Planes of `data` at 1/`denominator` laid out as `TurboJPEG.decodePlanes` lays them out,
    /// written by `decode` (one of the C decoders: the input, the plane count, each plane's pointer,
    /// stride, width and height), or nil when it did not return `VGN_JPEG_DC_OK`.
    static func ownPlanes(
        _ data: Data, header: TurboJPEG.Header, denominator: Int,
        _ decode: (
            UnsafeBufferPointer<UInt8>, Int32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int32>,
            [Int32], [Int32]
        ) -> Int32
    ) -> YCbCrPlanes? {
        var planes = YCbCrPlanes(
            width: (header.width + denominator - 1) / denominator, height: (header.height + denominator - 1) / denominator,
            subsampling: header.subsampling)
        planes.extent = (Double(header.width) / Double(denominator), Double(header.height) / Double(denominator))
        let count = planes.planeCount
        var widths: [Int32] = [0, 0, 0], heights: [Int32] = [0, 0, 0]
        for index in 0..<count {
            let size = planes.planeSize(index)
            widths[index] = Int32(size.width)
            heights[index] = Int32(size.height)
        }
        let status = data.withUnsafeBytes { raw in
            planes.withMutablePlanePointers { pointers, strides in
                decode(raw.bindMemory(to: UInt8.self), Int32(count), pointers, strides, widths, heights)
            }
        }
        return Int(status) == VGN_JPEG_DC_OK ? planes : nil
    }

    /// The copy of a progressive `data` with only its DC scans, or nil when it declined.
    static func dcScans(of data: Data) -> Data? {
        var stream = Data(count: data.count)
        let length = data.withUnsafeBytes { raw in
            stream.withUnsafeMutableBytes { out in
                vgn_jpeg_dc_progressive_stream(
                    raw.bindMemory(to: UInt8.self).baseAddress, raw.count, out.bindMemory(to: UInt8.self).baseAddress, out.count)
            }
        }
        guard length > 0 else { return nil }
        stream.count = length
        return stream
    }

    /// libjpeg-turbo's planes of the DC scans of a progressive `data`, or nil when the copy was
    /// declined or does not decode.
    static func decodeProgressive(_ data: Data, header: TurboJPEG.Header) -> YCbCrPlanes? {
        guard let stream = dcScans(of: data) else { return nil }
        return try? TurboJPEG.decodePlanes(stream, header: header, denominator: 8)
    }
}
