#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteTurboJPEG

/// libjpeg-turbo's TurboJPEG API, for the planar JPEG route (`Thumbnailer`'s JPEG → planes →
/// JPEG path): reading a JPEG's header, decoding it at a DCT scale into its own Y/Cb/Cr planes
/// (`tjDecompressToYUVPlanes`), turning planes into RGB (`tjDecodeYUVPlanes`) and encoding planes
/// or pixels (`tjCompressFromYUVPlanes`, `tjCompress2`).
///
/// One object owns one TurboJPEG handle: made by `init` (`tjInitDecompress`, `tjInitCompress`),
/// destroyed by `deinit` (`tjDestroy`), never shared between threads. Every call makes a handle of
/// its own, so calls from different threads never share libjpeg state. TurboJPEG reports errors
/// through return codes (it catches libjpeg's `error_exit` itself); each failure is thrown with
/// TurboJPEG's message (`tjGetErrorStr2`) and code (`tjGetErrorCode`). Decoding stops at the first
/// warning (a truncated or damaged stream) and after 500 progressive scans, so a hostile file fails
/// instead of being patched over or spinning.
final class TurboJPEG {
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

    /// What a handle does.
    enum Role {
        /// Reads headers, decodes JPEGs, turns planes into pixels (`tjInitDecompress`).
        case decompressor
        /// Encodes planes or pixels (`tjInitCompress`).
        case compressor
    }

    private let handle: tjhandle

    /// A new handle for `role`; `.operationFailed` with TurboJPEG's message and code when
    /// TurboJPEG cannot make one (it fails only when memory cannot be allocated).
    init(_ role: Role) throws(ImagingError) {
        let made: tjhandle?, call: String
        switch role {
        case .decompressor: (made, call) = (tjInitDecompress(), "tjInitDecompress")
        case .compressor: (made, call) = (tjInitCompress(), "tjInitCompress")
        }
        guard let made else { throw Self.error(nil, call, kind: .operationFailed) }
        handle = made
    }

    deinit {
        tjDestroy(handle)
    }

    /// Flags for every decode: stop on libjpeg warnings, at most 500 progressive scans.
    private static let decodeFlags = Int32(TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS)

    /// The header of `data`, or nil when TurboJPEG cannot read it (`tjDecompressHeader3`).
    static func header(of data: Data) -> Header? {
        guard let turbo = try? TurboJPEG(.decompressor) else { return nil }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = -1, colourSpace: Int32 = -1
        let status = data.withUnsafeBytes { raw in
            tjDecompressHeader3(
                turbo.handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), &width, &height, &subsampling,
                &colourSpace)
        }
        guard status == 0, width > 0, height > 0 else { return nil }
        return Header(width: Int(width), height: Int(height), subsampling: subsampling, colourSpace: colourSpace)
    }

    /// `data` decoded into its planes at 1/`denominator` of its size (1, 2, 4 or 8: libjpeg's
    /// scaled IDCT), each side rounded up as libjpeg does (`tjDecompressToYUVPlanes`). A stream
    /// TurboJPEG cannot decode is `.truncatedData`, `.unsupportedFormat` or `.corruptData` as its
    /// message says, read as libvips' loader messages are (libjpeg's words reach both).
    static func decodePlanes(_ data: Data, header: Header, denominator: Int) throws(ImagingError) -> YCbCrPlanes {
        guard header.isPlanar, [1, 2, 4, 8].contains(denominator) else {
            throw ImagingError(.unsupportedFormat, "TurboJPEG: not a Y/Cb/Cr or greyscale JPEG at a DCT scale")
        }
        let width = (header.width + denominator - 1) / denominator
        let height = (header.height + denominator - 1) / denominator
        var planes = YCbCrPlanes(width: width, height: height, subsampling: header.subsampling)
        planes.extent = (Double(header.width) / Double(denominator), Double(header.height) / Double(denominator))
        let turbo = try TurboJPEG(.decompressor)
        let status = data.withUnsafeBytes { raw in
            planes.withMutablePlanePointers { pointers, strides in
                tjDecompressToYUVPlanes(
                    turbo.handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), pointers, Int32(width), strides,
                    Int32(height), decodeFlags)
            }
        }
        guard status == 0 else { throw error(turbo.handle, "tjDecompressToYUVPlanes") }
        return planes
    }

    /// `planes` as interleaved 8-bit RGB (or grey) pixels written into `output`, chroma upsampled
    /// by libjpeg (`tjDecodeYUVPlanes`).
    static func interleaved(_ planes: YCbCrPlanes, into output: UnsafeMutableRawBufferPointer) throws(ImagingError) {
        let bands = planes.isGrey ? 1 : 3
        guard let target = output.baseAddress, output.count >= planes.width * planes.height * bands else {
            throw ImagingError(.invalidArgument, "\(output.count) bytes cannot hold \(planes.width)x\(planes.height)x\(bands) pixels")
        }
        let turbo = try TurboJPEG(.decompressor)
        let format = planes.isGrey ? TJPF_GRAY : TJPF_RGB
        let status = planes.withPlanePointers { pointers, strides in
            tjDecodeYUVPlanes(
                turbo.handle, pointers, strides, planes.subsampling, target.assumingMemoryBound(to: UInt8.self),
                Int32(planes.width), 0, Int32(planes.height), Int32(format.rawValue), 0)
        }
        guard status == 0 else { throw error(turbo.handle, "tjDecodeYUVPlanes", kind: .operationFailed) }
    }

    /// `planes` encoded as a baseline JPEG of `quality` (1-100) with standard Huffman tables and
    /// libjpeg's accurate integer DCT, at the planes' own subsampling (`tjCompressFromYUVPlanes`);
    /// no metadata but the JFIF header.
    static func encode(_ planes: YCbCrPlanes, quality: Int) throws(ImagingError) -> Data {
        let turbo = try TurboJPEG(.compressor)
        return try turbo.compress("tjCompressFromYUVPlanes") { output, size in
            planes.withPlanePointers { pointers, strides in
                tjCompressFromYUVPlanes(
                    turbo.handle, pointers, Int32(planes.width), strides, Int32(planes.height), planes.subsampling, output, size,
                    Int32(quality), Int32(TJFLAG_ACCURATEDCT))
            }
        }
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
        let turbo = try TurboJPEG(.compressor)
        let subsampling = bands == 1 ? TJSAMP_GRAY : quality < 90 ? TJSAMP_420 : TJSAMP_444
        return try turbo.compress("tjCompress2") { output, size in
            tjCompress2(
                turbo.handle, source.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(width * bands), Int32(height),
                Int32((bands == 1 ? TJPF_GRAY : TJPF_RGB).rawValue), output, size, Int32(subsampling.rawValue), Int32(quality),
                Int32(TJFLAG_ACCURATEDCT))
        }
    }

    /// Runs a compression that writes a `tjAlloc`'d JPEG to its arguments, and copies the JPEG
    /// into `Data`, freeing it at once (`tjFree`); `.operationFailed` when it fails.
    private func compress(
        _ call: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<UInt>) -> Int32
    ) throws(ImagingError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = body(&output, &size)
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw Self.error(handle, call, kind: .operationFailed) }
        return Data(bytes: output, count: Int(size))
    }

    /// The failure of `call` on `handle` (nil: a failed `tjInit…`, whose message TurboJPEG keeps
    /// per thread), with TurboJPEG's message (`tjGetErrorStr2`) and code (`tjGetErrorCode`); of
    /// `kind`, or for a decode (nil) of the kind its message names.
    private static func error(_ handle: tjhandle?, _ call: String, kind: ImagingError.Kind? = nil) -> ImagingError {
        let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
        return ImagingError(
            kind ?? VipsErrors.classifyDecoding(message), "TurboJPEG \(call): \(message)", code: .turboJPEG(tjGetErrorCode(handle)))
    }
}
