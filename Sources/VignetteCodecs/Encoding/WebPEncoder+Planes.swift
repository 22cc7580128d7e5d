#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteTurboJPEG
internal import CVignetteWebP

extension WebPEncoder {
    /// JPEG's full-range Y/Cb/Cr (ITU-T T.871) mapped to the studio range VP8 codes (BT.601: Y
    /// 16–235, Cb and Cr 16–240), which is what libwebp's own RGB importer makes of the same
    /// colours: the two differ only in range, so a table per sample does it.
    private static let studioLuma: [UInt8] = (0..<256).map { UInt8(16 + ($0 * 219 + 127) / 255) }
    private static let studioChroma: [UInt8] = (0..<256).map { UInt8(128 + Int((Double($0 - 128) * 224 / 255).rounded())) }

    /// `planes` (4:2:0 or greyscale, JPEG's full range) encoded as a lossy WebP: copied into a
    /// YUV420 `WebPPicture` in VP8's studio range and encoded by `WebPEncode`, without the
    /// YCbCr → RGB → YUV round trip of `encode(_:options:)` with an image. Greyscale gets neutral
    /// chroma. Lossless options or other subsamplings are `.invalidArgument` (they take the RGB image).
    static func encode(_ planes: YCbCrPlanes, options: WebPOptions) throws(ImagingError) -> Data {
        guard !options.lossless, planes.isGrey || planes.subsampling == Int32(TJSAMP_420.rawValue) else {
            throw ImagingError(.invalidArgument, "WebP from planes takes lossy 4:2:0 or greyscale planes")
        }
        var config = try config(for: options, width: planes.width, height: planes.height)
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImagingError(.encoderUnavailable, "libwebp version mismatch (WebPPictureInit)")
        }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = 0
        picture.colorspace = WEBP_YUV420
        picture.width = Int32(planes.width)
        picture.height = Int32(planes.height)
        guard WebPPictureAlloc(&picture) != 0, let y = picture.y, let u = picture.u, let v = picture.v else {
            throw failure(.limitExceeded, "WebPPictureAlloc", picture)
        }
        let chromaWidth = (planes.width + 1) / 2, chromaHeight = (planes.height + 1) / 2
        planes.withPlanePointers { sources, strides in
            copy(sources[0], stride: Int(strides[0]), into: y, stride: Int(picture.y_stride),
                 width: planes.width, height: planes.height, table: studioLuma)
            for (index, target) in [(1, u), (2, v)] {
                if let source = sources[index] {
                    copy(source, stride: Int(strides[index]), into: target, stride: Int(picture.uv_stride),
                         width: chromaWidth, height: chromaHeight, table: studioChroma)
                } else {
                    for row in 0..<chromaHeight {
                        (target + row * Int(picture.uv_stride)).initialize(repeating: 128, count: chromaWidth)
                    }
                }
            }
        }
        return try write(&picture, config: &config)
    }

    /// `width` × `height` samples from `source` to `target`, each through `table`.
    private static func copy(
        _ source: UnsafePointer<UInt8>?, stride sourceStride: Int, into target: UnsafeMutablePointer<UInt8>, stride targetStride: Int,
        width: Int, height: Int, table: [UInt8]
    ) {
        guard let source else { return }
        table.withUnsafeBufferPointer { table in
            for row in 0..<height {
                let input = source + row * sourceStride, output = target + row * targetStride
                for column in 0..<width { output[column] = table[Int(input[column])] }
            }
        }
    }
}
