#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteHeif
internal import CVignetteTurboJPEG

extension HEIFEncoder {
    /// `planes` (4:2:0, JPEG's full range) encoded as a lossy 4:2:0 HEIC or AVIF: a YCbCr 4:2:0
    /// `heif_image` holding the planes as they are, labelled with the nclx colour they are in
    /// (sRGB primaries and transfer, BT.601 matrix, full range: JPEG's, `heif_image_set_nclx_color_profile`),
    /// which libheif hands to the encoder without converting, where an RGB image is converted to
    /// Y/Cb/Cr and subsampled first. Other planes or options are `.invalidArgument`.
    static func encode(_ planes: YCbCrPlanes, codec: Codec, options: HEIFOptions) throws(ImagingError) -> Data {
        guard !options.lossless, options.chroma == .yuv420, planes.subsampling == Int32(TJSAMP_420.rawValue) else {
            throw ImagingError(.invalidArgument, "\(codec.name) from planes takes lossy 4:2:0 options and 4:2:0 planes")
        }
        try check(options, codec: codec)
        var imagePointer: OpaquePointer?
        try ImagingError.checkHEIF(
            heif_image_create(Int32(planes.width), Int32(planes.height), heif_colorspace_YCbCr, heif_chroma_420, &imagePointer),
            "heif_image_create")
        guard let image = imagePointer else { throw ImagingError(.operationFailed, "heif_image_create made nothing") }
        defer { heif_image_release(image) }

        let chromaSize = ((planes.width + 1) / 2, (planes.height + 1) / 2)
        let channels = [(heif_channel_Y, (planes.width, planes.height)), (heif_channel_Cb, chromaSize), (heif_channel_Cr, chromaSize)]
        var targets: [(UnsafeMutablePointer<UInt8>, Int)] = []
        for (channel, size) in channels {
            let added = heif_image_add_plane(image, channel, Int32(size.0), Int32(size.1), 8)
            var stride: Int32 = 0
            guard added.code == heif_error_Ok, let plane = heif_image_get_plane(image, channel, &stride) else {
                throw ImagingError(.limitExceeded, "heif_image_add_plane failed for \(size.0)x\(size.1)")
            }
            targets.append((plane, Int(stride)))
        }
        planes.withPlanePointers { sources, strides in
            for (index, (_, size)) in channels.enumerated() {
                guard let source = sources[index] else { continue }
                for row in 0..<size.1 {
                    (targets[index].0 + row * targets[index].1).update(from: source + row * Int(strides[index]), count: size.0)
                }
            }
        }

        guard let nclx = heif_nclx_color_profile_alloc() else {
            throw ImagingError(.limitExceeded, "heif_nclx_color_profile_alloc failed")
        }
        defer { heif_nclx_color_profile_free(nclx) }
        nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_709_5
        nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
        nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6
        nclx.pointee.full_range_flag = 1
        try ImagingError.checkHEIF(heif_image_set_nclx_color_profile(image, nclx), "heif_image_set_nclx_color_profile", encoding: true)
        return try encode(image, codec: codec, options: options)
    }
}
