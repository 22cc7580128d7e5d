#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteHeif
internal import CVignetteImageShims

/// HEIC (x265) and AVIF (aom) encoding with libheif directly: `heif_image_create` over the pixels,
/// `heif_context_encode_image`, `heif_context_write`.
enum HEIFEncoder {
    enum Codec {
        case hevc, av1

        var compression: heif_compression_format {
            self == .hevc ? heif_compression_HEVC : heif_compression_AV1
        }
        var name: String { self == .hevc ? "HEIC (HEVC)" : "AVIF (AV1)" }
    }

    /// x265 presets from slowest to fastest; `HEIFOptions.speed` indexes this list.
    static let x265Presets = ["placebo", "veryslow", "slower", "slow", "medium", "fast", "faster", "veryfast", "superfast", "ultrafast"]

    static func encode(_ image: Image, codec: Codec, options: HEIFOptions) throws(ImagingError) -> Data {
        try check(options, codec: codec)
        let standard = try image.standardizedToRGB8()
        let pixels = try standard.pixels()
        let heifImage = try makeImage(pixels)
        defer { heif_image_release(heifImage) }
        if let profile = standard.iccProfile {
            // The pixels need their profile to be read (a kept profile): written as the image's "prof" colr box.
            let status = profile.withUnsafeBytes { raw in
                heif_image_set_raw_color_profile(heifImage, "prof", raw.baseAddress, raw.count)
            }
            try ImagingError.checkHEIF(status, "heif_image_set_raw_color_profile", encoding: true)
        }
        return try encode(heifImage, codec: codec, options: options)
    }

    /// Checks `options` and opens libheif (`HEIFLibrary`): what every encode does before it calls libheif.
    static func check(_ options: HEIFOptions, codec: Codec) throws(ImagingError) {
        try ImageEncoder.check(options.quality, in: 0...100, "\(codec.name) quality")
        try ImageEncoder.check(options.speed, in: 0...9, "\(codec.name) speed")
        try HEIFLibrary.load(.encoderUnavailable)
    }

    /// `heifImage` coded by `codec`'s encoder with `options` and written as a file
    /// (`heif_context_encode_image`, `heif_context_write`).
    static func encode(_ heifImage: OpaquePointer, codec: Codec, options: HEIFOptions) throws(ImagingError) -> Data {
        guard heif_have_encoder_for_format(codec.compression) != 0 else {
            throw ImagingError(.encoderUnavailable, "libheif \(HEIFVersion.string) has no \(codec.name) encoder")
        }
        guard let context = heif_context_alloc() else {
            throw ImagingError(.operationFailed, "heif_context_alloc failed")
        }
        defer { heif_context_free(context) }

        var encoderPointer: OpaquePointer?
        try ImagingError.checkHEIF(
            heif_context_get_encoder_for_format(context, codec.compression, &encoderPointer), "heif encoder", encoding: true)
        guard let encoder = encoderPointer else { throw ImagingError(.encoderUnavailable, "no \(codec.name) encoder") }
        defer { heif_encoder_release(encoder) }
        try configure(encoder, codec: codec, options: options)

        let encodingOptions = heif_encoding_options_alloc()
        defer { heif_encoding_options_free(encodingOptions) }
        var handle: OpaquePointer?
        try ImagingError.checkHEIF(
            heif_context_encode_image(context, heifImage, encoder, encodingOptions, &handle), "heif_context_encode_image",
            encoding: true)
        if let handle { heif_image_handle_release(handle) }

        var buffer: UnsafeMutableRawPointer?
        var length = 0
        try ImagingError.checkHEIF(vgn_heif_write_to_memory(context, &buffer, &length), "heif_context_write", encoding: true)
        guard let buffer else { throw ImagingError(.operationFailed, "heif_context_write produced nothing") }
        defer { free(buffer) }
        return Data(bytes: buffer, count: length)
    }

    private static func configure(_ encoder: OpaquePointer, codec: Codec, options: HEIFOptions) throws(ImagingError) {
        try ImagingError.checkHEIF(heif_encoder_set_lossy_quality(encoder, Int32(options.quality)), "quality", encoding: true)
        try ImagingError.checkHEIF(heif_encoder_set_lossless(encoder, options.lossless ? 1 : 0), "lossless", encoding: true)
        let chroma = options.lossless ? HEIFOptions.Chroma.yuv444.rawValue : options.chroma.rawValue
        try ImagingError.checkHEIF(heif_encoder_set_parameter_string(encoder, "chroma", chroma), "chroma", encoding: true)
        switch codec {
        case .hevc:
            try ImagingError.checkHEIF(
                heif_encoder_set_parameter_string(encoder, "preset", x265Presets[options.speed]), "x265 preset", encoding: true)
        case .av1:
            try ImagingError.checkHEIF(
                heif_encoder_set_parameter_integer(encoder, "speed", Int32(options.speed)), "aom speed", encoding: true)
        }
    }

    /// A libheif image with one interleaved RGB(A) plane holding `pixels`.
    private static func makeImage(_ pixels: PixelBuffer) throws(ImagingError) -> OpaquePointer {
        let alpha = pixels.bands == 4
        var imagePointer: OpaquePointer?
        try ImagingError.checkHEIF(
            heif_image_create(
                Int32(pixels.width), Int32(pixels.height), heif_colorspace_RGB,
                alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &imagePointer),
            "heif_image_create")
        guard let image = imagePointer else { throw ImagingError(.operationFailed, "heif_image_create made nothing") }
        let added = heif_image_add_plane(image, heif_channel_interleaved, Int32(pixels.width), Int32(pixels.height), 8)
        var stride: Int32 = 0
        guard added.code == heif_error_Ok, let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
            heif_image_release(image)
            throw ImagingError(.operationFailed, "heif_image_add_plane failed")
        }
        let rowBytes = pixels.width * pixels.bands
        pixels.bytes.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<pixels.height {
                plane.advanced(by: row * Int(stride)).update(
                    from: base.advanced(by: row * rowBytes).assumingMemoryBound(to: UInt8.self), count: rowBytes)
            }
        }
        return image
    }
}
