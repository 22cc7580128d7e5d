#if Video
internal import CVignetteFFmpeg

/// One `AVFrame`, freed with it (`av_frame_free`).
final class VideoFrame {
    var pointer: UnsafeMutablePointer<AVFrame>

    init() throws(ImagingError) {
        guard let made = av_frame_alloc() else { throw ImagingError(.operationFailed, "av_frame_alloc failed") }
        pointer = made
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }
}

/// libavcodec's decoder for one stream (`avcodec_open2`), held to the pixel budget
/// (`max_pixels`) and one thread, and the send/receive loop that reads packets up to a frame.
final class VideoFrameDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let stream: UnsafeMutablePointer<AVStream>
    private let limits: DecodingLimits
    private let watch: VideoWatch
    /// Frames decoded so far, over every pass (a rewind after a failed seek decodes again).
    private var decoded = 0

    init(stream: UnsafeMutablePointer<AVStream>, limits: DecodingLimits, watch: VideoWatch) throws(ImagingError) {
        guard let parameters = stream.pointee.codecpar else { throw ImagingError(.corruptData, "the video stream has no parameters") }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw ImagingError(.unsupportedFormat, "this FFmpeg has no decoder for \(name) video")
        }
        guard let context = avcodec_alloc_context3(codec) else { throw ImagingError(.operationFailed, "avcodec_alloc_context3 failed") }
        var status = avcodec_parameters_to_context(context, parameters)
        if status >= 0 {
            context.pointee.max_pixels = Int64(limits.maxPixels)
            context.pointee.thread_count = 1
            context.pointee.pkt_timebase = stream.pointee.time_base
            status = avcodec_open2(context, codec, nil)
        }
        guard status >= 0 else {
            var freed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&freed)
            throw watch.error(status, "avcodec_open2")
        }
        self.context = context
        self.stream = stream
        self.limits = limits
        self.watch = watch
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = self.context
        avcodec_free_context(&context)
    }

    /// The first frame whose timestamp is at or after `target` (in the stream's time base; nil:
    /// the first frame). Each frame decoded counts against `maxFrames`. When the stream ends
    /// first, the last frame is the answer if the container's duration ends before the second
    /// asked for, and the data is truncated otherwise.
    func frame(reaching target: Int64?, demuxer: VideoDemuxer) throws(ImagingError) -> VideoFrame {
        guard let packet = av_packet_alloc() else { throw ImagingError(.operationFailed, "av_packet_alloc failed") }
        var freed: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&freed) }
        var frame = try VideoFrame()
        var last: VideoFrame?
        var draining = false
        var readFailure: Int32?
        while true {
            try watch.check()
            let received = avcodec_receive_frame(context, frame.pointer)
            if received == 0 {
                decoded += 1
                let stamp = frame.pointer.pointee.best_effort_timestamp
                if target == nil || stamp == vgn_av_nopts() || stamp >= (target ?? 0) { return frame }
                if decoded >= limits.maxFrames {
                    throw ImagingError(
                        .limitExceeded, "reaching the frame asked for decodes more than \(limits.maxFrames) frames, the frame limit")
                }
                last = frame
                frame = try VideoFrame()
                continue
            }
            if received == vgn_av_error_eof() { break }
            if received != vgn_av_error_eagain() {
                if limits.failOn != .none { throw failure(received, "avcodec_receive_frame", demuxer) }
                continue
            }
            if draining { break }
            let read = av_read_frame(demuxer.context, packet)
            if read < 0 {
                if read == vgn_av_error_exit() { try watch.check() }
                if read != vgn_av_error_eof() { readFailure = read }
                draining = true
                _ = avcodec_send_packet(context, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            let sent = avcodec_send_packet(context, packet)
            if sent < 0, sent != vgn_av_error_eagain(), limits.failOn != .none {
                throw failure(sent, "avcodec_send_packet", demuxer)
            }
        }
        try watch.check()
        guard let last else {
            if let readFailure, !demuxer.wentPastEnd { throw watch.error(readFailure, "av_read_frame") }
            throw ImagingError(.truncatedData, "the video stream ends before a frame could be decoded")
        }
        // Past the end of a whole stream: its last frame. A stream that ends before the duration
        // its container declares, or with a read error, was cut short or damaged.
        let timeBase = av_q2d(stream.pointee.time_base)
        let reached = Double(last.pointer.pointee.best_effort_timestamp) * timeBase
        if let duration = demuxer.duration, let target, Double(target) * timeBase < duration, readFailure != nil || reached < duration - 1 {
            throw ImagingError(
                .truncatedData, "the video stream ends at \(Self.seconds(reached)) s, before the frame at \(Self.seconds(Double(target) * timeBase)) s")
        }
        if let readFailure, limits.failOn != .none {
            throw demuxer.wentPastEnd ? ImagingError(.truncatedData, "the video data ends early") : watch.error(readFailure, "av_read_frame")
        }
        return last
    }

    /// The error for a decoder's failing `status`: once the demuxer has read past the end of the
    /// data, the packet the decoder refused was cut short, so the data is truncated.
    private func failure(_ status: Int32, _ call: String, _ demuxer: VideoDemuxer) -> ImagingError {
        let error = watch.error(status, call)
        guard error.kind == .corruptData, demuxer.wentPastEnd else { return error }
        return ImagingError(.truncatedData, "the video data ends early (\(error.message))")
    }

    /// Drops what the decoder holds, for decoding again from another place (`avcodec_flush_buffers`).
    func flush() { avcodec_flush_buffers(context) }

    private static func seconds(_ value: Double) -> String { String((value * 100).rounded() / 100) }
}
#endif
