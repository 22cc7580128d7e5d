#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteWebP

/// An animated WebP of whole frames, none dropped: each frame encoded as a still WebP by
/// `WebPEncoder` (`WebPEncode`), pushed with its duration by `WebPMuxPushFrame` (no blending, so
/// each frame replaces the canvas), the loop count set by `WebPMuxSetAnimationParams`, and the file
/// made by `WebPMuxAssemble` (libwebpmux). Larger than `WebPAnimEncoder`'s output, which codes only
/// what changed; used when that encoder merged unchanged frames.
enum WholeFrameWebPMuxer {
    static func encode(_ animation: Animation, options: WebPOptions) throws(ImagingError) -> Data {
        let mux = try Mux()
        for (frame, delay) in zip(animation.frames, animation.delays) {
            let still = try WebPEncoder.encode(frame, options: options)
            let status = still.withUnsafeBytes { raw -> WebPMuxError in
                var info = WebPMuxFrameInfo()
                info.bitstream = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
                info.duration = Int32(clamping: delay)
                info.id = WEBP_CHUNK_ANMF
                info.dispose_method = WEBP_MUX_DISPOSE_NONE
                info.blend_method = WEBP_MUX_NO_BLEND
                // copy_data 1: the mux keeps its own copy of the bytes, which live only in this closure.
                return WebPMuxPushFrame(mux.pointer, &info, 1)
            }
            try WebPMuxStatus.check(status, "WebPMuxPushFrame")
        }
        var parameters = WebPMuxAnimParams(bgcolor: 0, loop_count: Int32(clamping: animation.loopCount))
        try WebPMuxStatus.check(WebPMuxSetAnimationParams(mux.pointer, &parameters), "WebPMuxSetAnimationParams")
        let output = AnimatedWebPEncoder.AssembledData()
        try WebPMuxStatus.check(WebPMuxAssemble(mux.pointer, &output.data), "WebPMuxAssemble")
        guard let bytes = output.data.bytes else { throw ImagingError(.operationFailed, "WebPMuxAssemble gave no bytes") }
        return Data(bytes: bytes, count: output.data.size)
    }

    /// Owns a `WebPMux`, deleted with `WebPMuxDelete` in `deinit`.
    final class Mux {
        let pointer: OpaquePointer

        init() throws(ImagingError) {
            guard let made = WebPMuxNew() else {
                throw ImagingError(.encoderUnavailable, "libwebpmux version mismatch (WebPMuxNew)")
            }
            pointer = made
        }

        deinit { WebPMuxDelete(pointer) }
    }
}
