#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteWebP

/// Animated WebP encoding with libwebp's animation encoder (libwebpmux): `WebPAnimEncoderNew`,
/// one `WebPAnimEncoderAdd` per frame at its start time, a last `WebPAnimEncoderAdd` with no frame
/// at the end time (which sets the last frame's duration), then `WebPAnimEncoderAssemble`.
///
/// The animation encoder stores each frame as the rectangle that changed since the one before, and
/// drops a frame that did not change (within the lossy tolerance), adding its duration to the one
/// before, whatever its key-frame settings. To keep every frame and its delay, an output with fewer
/// frames (`ANMF` chunks) than the animation is made again by `WholeFrameWebPMuxer`: each frame
/// encoded whole (`WebPEncode`) and muxed as it is (`WebPMuxPushFrame`).
enum AnimatedWebPEncoder {
    static func encode(_ animation: Animation, options: WebPOptions) throws(ImagingError) -> Data {
        let pictures = try animation.frames.map { frame throws(ImagingError) in try FramePicture(frame) }
        let encoded = try encode(animation, pictures, options: options)
        if frameCount(ofAnimatedWebP: encoded) == animation.frameCount { return encoded }
        return try WholeFrameWebPMuxer.encode(animation, options: options)
    }

    /// The number of `ANMF` (animation frame) chunks at the top level of a WebP file's RIFF container.
    static func frameCount(ofAnimatedWebP data: Data) -> Int {
        let bytes = [UInt8](data)
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else { return 0 }
        var offset = 12
        var count = 0
        while offset + 8 <= bytes.count {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4].elementsEqual("ANMF".utf8) { count += 1 }
            offset += 8 + size + (size & 1)
        }
        return count
    }

    private static func encode(_ animation: Animation, _ pictures: [FramePicture], options: WebPOptions) throws(ImagingError) -> Data {
        var config = try WebPEncoder.config(for: options, width: animation.width, height: animation.height)

        let encoder = try AnimEncoder(width: animation.width, height: animation.height, loopCount: animation.loopCount)
        var timestamp = 0
        for (picture, delay) in zip(pictures, animation.delays) {
            guard WebPAnimEncoderAdd(encoder.pointer, &picture.picture, Int32(clamping: timestamp), &config) != 0 else {
                throw encoder.error("WebPAnimEncoderAdd", picture: picture)
            }
            timestamp += delay
        }
        guard WebPAnimEncoderAdd(encoder.pointer, nil, Int32(clamping: timestamp), nil) != 0 else {
            throw encoder.error("WebPAnimEncoderAdd", picture: nil)
        }
        let output = AssembledData()
        guard WebPAnimEncoderAssemble(encoder.pointer, &output.data) != 0, let bytes = output.data.bytes else {
            throw encoder.error("WebPAnimEncoderAssemble", picture: nil)
        }
        return Data(bytes: bytes, count: output.data.size)
    }

    /// Owns a `WebPAnimEncoder`, deleted (`WebPAnimEncoderDelete`) in `deinit`.
    final class AnimEncoder {
        let pointer: OpaquePointer

        init(width: Int, height: Int, loopCount: Int) throws(ImagingError) {
            var options = WebPAnimEncoderOptions()
            guard WebPAnimEncoderOptionsInit(&options) != 0 else {
                throw ImagingError(.encoderUnavailable, "libwebpmux version mismatch (WebPAnimEncoderOptionsInit)")
            }
            options.anim_params.loop_count = Int32(clamping: loopCount)
            // Every frame stays lossy or lossless as asked, rather than libwebp picking per frame.
            options.allow_mixed = 0
            guard let made = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else {
                throw ImagingError(.operationFailed, "WebPAnimEncoderNew failed for a \(width)x\(height) canvas")
            }
            pointer = made
        }

        deinit { WebPAnimEncoderDelete(pointer) }

        /// The encoder's own message (`WebPAnimEncoderGetError`), and the picture's error code.
        func error(_ what: String, picture: FramePicture?) -> ImagingError {
            var message = WebPAnimEncoderGetError(pointer).map { String(cString: $0) } ?? ""
            var code: ImagingError.Code?
            if let picture, picture.picture.error_code != VP8_ENC_OK {
                message += (message.isEmpty ? "" : "; ") + WebPEncoder.describe(picture.picture.error_code)
                code = .libwebp(Int32(picture.picture.error_code.rawValue))
            }
            return ImagingError(.operationFailed, "\(what) failed: \(message.isEmpty ? "no reason given" : message)", code: code)
        }
    }

    /// Owns one frame's `WebPPicture` (ARGB, as the animation encoder takes), freed with
    /// `WebPPictureFree` in `deinit`.
    final class FramePicture {
        var picture = WebPPicture()

        init(_ frame: Image) throws(ImagingError) {
            guard WebPPictureInit(&picture) != 0 else {
                throw ImagingError(.encoderUnavailable, "libwebp version mismatch (WebPPictureInit)")
            }
            // Animated WebP is written without a profile: frames that carry one are converted through it.
            let rgb = try frame.convertedToSRGB().standardizedToRGB8().pixels()
            picture.use_argb = 1
            try WebPEncoder.importPixels(rgb, into: &picture)
        }

        deinit { WebPPictureFree(&picture) }
    }

    /// Owns the assembled file's `WebPData`, released with `WebPDataClear` in `deinit`.
    final class AssembledData {
        var data = WebPData()

        init() { WebPDataInit(&data) }

        deinit { WebPDataClear(&data) }
    }
}
