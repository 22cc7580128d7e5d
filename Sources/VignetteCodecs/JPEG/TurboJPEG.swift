#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteTurboJPEG

/// libjpeg-turbo's TurboJPEG API, for the planar JPEG route (`Thumbnailer`'s JPEG → planes →
/// JPEG path): reading a JPEG's header, decoding it at a DCT scale into its own Y/Cb/Cr planes
/// (`tjDecompressToYUVPlanes`), turning planes into RGB (`tjDecodeYUVPlanes`) and encoding planes
/// (`tjCompressFromYUVPlanes`). Every call works on a handle of its own, so calls from different
/// threads never share libjpeg state; TurboJPEG reports errors through return codes (it catches
/// libjpeg's `error_exit` itself), and decoding stops at the first warning (a truncated or
/// damaged stream) and after 500 progressive scans, so a hostile file fails instead of being
/// patched over or spinning.
enum TurboJPEG {
    /// What the planar route needs from a JPEG's header (`tjDecompressHeader3`).
    struct Header: Equatable {
        var width: Int
        var height: Int
        /// The chroma subsampling (TurboJPEG's `TJSAMP_` value).
        var subsampling: Int32
        /// TurboJPEG's `TJCS_` colour space.
        var colourSpace: Int32

        /// Y/Cb/Cr or greyscale with a subsampling TurboJPEG names: what can be decoded to planes.
        var isPlanar: Bool {
            let knownSubsampling = (0..<Int32(TJ_NUMSAMP)).contains(subsampling)
            return knownSubsampling
                && (colourSpace == Int32(TJCS_YCbCr.rawValue) && subsampling != Int32(TJSAMP_GRAY.rawValue)
                    || colourSpace == Int32(TJCS_GRAY.rawValue) && subsampling == Int32(TJSAMP_GRAY.rawValue))
        }
    }

    /// Flags for every decode: stop on libjpeg warnings, at most 500 progressive scans.
    private static let decodeFlags = Int32(TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)

    /// The header of `data`, or nil when TurboJPEG cannot read it.
    static func header(of data: Data) -> Header? {
        guard let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = -1, colourSpace: Int32 = -1
        let status = data.withUnsafeBytes { raw in
            tjDecompressHeader3(
                handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), &width, &height, &subsampling, &colourSpace)
        }
        guard status == 0, width > 0, height > 0 else { return nil }
        return Header(width: Int(width), height: Int(height), subsampling: subsampling, colourSpace: colourSpace)
    }

    /// `data` decoded into its planes at 1/`denominator` of its size (1, 2, 4 or 8: libjpeg's
    /// scaled IDCT), each side rounded up as libjpeg does.
    static func decodePlanes(_ data: Data, header: Header, denominator: Int) throws(ImagingError) -> YCbCrPlanes {
        guard header.isPlanar, [1, 2, 4, 8].contains(denominator) else {
            throw ImagingError(.unsupportedFormat, "TurboJPEG: not a Y/Cb/Cr or greyscale JPEG at a DCT scale")
        }
        let width = (header.width + denominator - 1) / denominator
        let height = (header.height + denominator - 1) / denominator
        var planes = YCbCrPlanes(width: width, height: height, subsampling: header.subsampling)
        planes.extent = (Double(header.width) / Double(denominator), Double(header.height) / Double(denominator))
        guard let handle = tjInitDecompress() else { throw ImagingError(.limitExceeded, "TurboJPEG: no decompressor") }
        defer { tjDestroy(handle) }
        let status = data.withUnsafeBytes { raw in
            planes.withMutablePlanePointers { pointers, strides in
                tjDecompressToYUVPlanes(
                    handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), pointers, Int32(width), strides,
                    Int32(height), decodeFlags)
            }
        }
        guard status == 0 else { throw failure(handle, "decode") }
        return planes
    }

    /// `planes` as interleaved 8-bit RGB (or grey) pixels written into `output`, chroma upsampled
    /// by libjpeg (`tjDecodeYUVPlanes`).
    static func interleaved(_ planes: YCbCrPlanes, into output: UnsafeMutableRawBufferPointer) throws(ImagingError) {
        let bands = planes.isGrey ? 1 : 3
        guard let target = output.baseAddress, output.count >= planes.width * planes.height * bands else {
            throw ImagingError(.invalidArgument, "\(output.count) bytes cannot hold \(planes.width)x\(planes.height)x\(bands) pixels")
        }
        guard let handle = tjInitDecompress() else { throw ImagingError(.limitExceeded, "TurboJPEG: no decompressor") }
        defer { tjDestroy(handle) }
        let format = planes.isGrey ? TJPF_GRAY : TJPF_RGB
        let status = planes.withPlanePointers { pointers, strides in
            tjDecodeYUVPlanes(
                handle, pointers, strides, planes.subsampling, target.assumingMemoryBound(to: UInt8.self),
                Int32(planes.width), 0, Int32(planes.height), Int32(format.rawValue), 0)
        }
        guard status == 0 else { throw failure(handle, "colour conversion") }
    }

    /// `planes` encoded as a baseline JPEG of `quality` (1-100) with standard Huffman tables and
    /// libjpeg's accurate integer DCT, at the planes' own subsampling; no metadata but the JFIF header.
    static func encode(_ planes: YCbCrPlanes, quality: Int) throws(ImagingError) -> Data {
        guard let handle = tjInitCompress() else { throw ImagingError(.limitExceeded, "TurboJPEG: no compressor") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = planes.withPlanePointers { pointers, strides in
            tjCompressFromYUVPlanes(
                handle, pointers, Int32(planes.width), strides, Int32(planes.height), planes.subsampling, &output, &size,
                Int32(quality), Int32(TJFLAG_ACCURATEDCT))
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw failure(handle, "encode") }
        return Data(bytes: output, count: Int(size))
    }

    /// `width` × `height` interleaved 8-bit pixels of `bands` (3: RGB, 1: grey; rows packed)
    /// encoded as a baseline JPEG of `quality` (1-100) as `vips_jpegsave` writes one stripped:
    /// standard Huffman tables, libjpeg's accurate integer DCT, chroma at 4:2:0 below quality 90 and
    /// 4:4:4 from 90 (`tjCompress2`); no metadata but the JFIF header.
    static func encode(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int, bands: Int, quality: Int
    ) throws(ImagingError) -> Data {
        guard bands == 3 || bands == 1 else { throw ImagingError(.invalidArgument, "TurboJPEG encodes 1 or 3 bands, not \(bands)") }
        guard let source = pixels.baseAddress, pixels.count >= width * height * bands else {
            throw ImagingError(.invalidArgument, "\(pixels.count) bytes do not hold \(width)x\(height)x\(bands) pixels")
        }
        guard let handle = tjInitCompress() else { throw ImagingError(.limitExceeded, "TurboJPEG: no compressor") }
        defer { tjDestroy(handle) }
        let subsampling = bands == 1 ? TJSAMP_GRAY : quality < 90 ? TJSAMP_420 : TJSAMP_444
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(
            handle, source.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(width * bands), Int32(height), Int32((bands == 1 ? TJPF_GRAY : TJPF_RGB).rawValue),
            &output, &size, Int32(subsampling.rawValue), Int32(quality), Int32(TJFLAG_ACCURATEDCT))
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw failure(handle, "encode") }
        return Data(bytes: output, count: Int(size))
    }

    private static func failure(_ handle: tjhandle, _ what: String) -> ImagingError {
        let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
        return ImagingError(.corruptData, "TurboJPEG \(what): \(message)")
    }
}
