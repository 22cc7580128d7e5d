#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteWebP

enum WebPVersion {
    static var string: String {
        let v = WebPGetEncoderVersion()
        return "\(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)"
    }
}

/// WebP encoding with libwebp directly (`WebPEncode` into a `WebPMemoryWriter`).
enum WebPEncoder {
    /// libwebp's configuration for `options` (`WebPConfigInit`, `WebPValidateConfig`), for a
    /// `width` × `height` picture or animation; bad options or sizes are `.invalidArgument`.
    static func config(for options: WebPOptions, width: Int, height: Int) throws(ImagingError) -> WebPConfig {
        try ImageEncoder.check(options.quality, in: 0...100, "WebP quality")
        try ImageEncoder.check(options.effort, in: 0...6, "WebP effort")
        try ImageEncoder.check(options.alphaQuality, in: 0...100, "WebP alpha quality")
        guard width <= 16383, height <= 16383 else {
            throw ImagingError(.invalidArgument, "WebP images are at most 16383 pixels a side, got \(width)x\(height)")
        }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw ImagingError(.encoderUnavailable, "libwebp version mismatch (WebPConfigInit)")
        }
        config.quality = Float(options.quality)
        config.lossless = options.lossless ? 1 : 0
        config.method = Int32(options.effort)
        config.alpha_quality = Int32(options.alphaQuality)
        // Lossless must round-trip every pixel, including colour under transparent ones.
        config.exact = options.lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else {
            throw ImagingError(.invalidArgument, "libwebp rejected the configuration (WebPValidateConfig)")
        }
        return config
    }

    static func encode(_ image: Image, options: WebPOptions) throws(ImagingError) -> Data {
        var config = try config(for: options, width: image.width, height: image.height)
        let rgb = try rgbPixels(of: image)

        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImagingError(.encoderUnavailable, "libwebp version mismatch (WebPPictureInit)")
        }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = options.lossless ? 1 : 0
        try importPixels(rgb, into: &picture)
        return try write(&picture, config: &config)
    }

    /// `picture` encoded with `config` (`WebPEncode` into a `WebPMemoryWriter`).
    static func write(_ picture: inout WebPPicture, config: inout WebPConfig) throws(ImagingError) -> Data {
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writerPointer -> Int32 in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let memory = writer.mem else {
            throw failure(.operationFailed, "WebPEncode", picture)
        }
        return Data(bytes: memory, count: writer.size)
    }

    /// 8-bit RGB or RGBA (grey expanded to RGB), as libwebp's importers take.
    private static func rgbPixels(of image: Image) throws(ImagingError) -> PixelBuffer {
        try image.standardizedToRGB8().pixels()
    }

    /// Sizes `picture` to `rgb` and copies its RGB or RGBA pixels in (`WebPPictureImportRGB`,
    /// `WebPPictureImportRGBA`), as ARGB or YUV as `picture.use_argb` says.
    static func importPixels(_ rgb: PixelBuffer, into picture: inout WebPPicture) throws(ImagingError) {
        picture.width = Int32(rgb.width)
        picture.height = Int32(rgb.height)
        let imported = rgb.bytes.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            let stride = Int32(rgb.width * rgb.bands)
            return rgb.bands == 4
                ? WebPPictureImportRGBA(&picture, base, stride) : WebPPictureImportRGB(&picture, base, stride)
        }
        guard imported != 0 else {
            throw failure(.operationFailed, "WebPPictureImport", picture)
        }
    }

    /// `call`'s failure on `picture`: libwebp's `WebPEncodingError` named, and kept as `Code.libwebp`.
    static func failure(_ kind: ImagingError.Kind, _ call: String, _ picture: WebPPicture) -> ImagingError {
        ImagingError(kind, "\(call) failed: \(describe(picture.error_code))", code: .libwebp(Int32(picture.error_code.rawValue)))
    }

    static func describe(_ code: WebPEncodingError) -> String {
        switch code {
        case VP8_ENC_OK: "ok"
        case VP8_ENC_ERROR_OUT_OF_MEMORY: "VP8_ENC_ERROR_OUT_OF_MEMORY"
        case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY"
        case VP8_ENC_ERROR_NULL_PARAMETER: "VP8_ENC_ERROR_NULL_PARAMETER"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: "VP8_ENC_ERROR_INVALID_CONFIGURATION"
        case VP8_ENC_ERROR_BAD_DIMENSION: "VP8_ENC_ERROR_BAD_DIMENSION"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW: "VP8_ENC_ERROR_PARTITION0_OVERFLOW"
        case VP8_ENC_ERROR_PARTITION_OVERFLOW: "VP8_ENC_ERROR_PARTITION_OVERFLOW"
        case VP8_ENC_ERROR_BAD_WRITE: "VP8_ENC_ERROR_BAD_WRITE"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "VP8_ENC_ERROR_FILE_TOO_BIG"
        case VP8_ENC_ERROR_USER_ABORT: "VP8_ENC_ERROR_USER_ABORT"
        default: "WebPEncodingError \(code.rawValue)"
        }
    }
}
