#if Video
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteFFmpeg

/// A still frame of a video, decoded with FFmpeg (libavformat, libavcodec, libswscale) within
/// `DecodingLimits`: the first frame (a keyframe) by default, or the first frame at or after a
/// given second, as `ffmpeg -ss T -i FILE -frames:v 1` gives it.
///
/// The budget is checked from the container's header before any frame is decoded (the stream's
/// size against the pixel and memory budgets), again after the stream parameters are read, and
/// the decoder itself refuses bigger frames (`AVCodecContext.max_pixels`). Frames decoded on the
/// way to the one asked for count against `maxFrames`, and the whole decode stops at
/// `maxRenderSeconds` (FFmpeg's interrupt callback, and a check between frames).
struct VideoPoster {
    /// The header: the poster's size (rotation applied), the codec and the duration.
    let info: ImageInfo
    private let demuxer: VideoDemuxer
    private let stream: UnsafeMutablePointer<AVStream>
    private let limits: DecodingLimits

    /// Frames a decoder may hold beside the one it gives (its reference frames): a level-5 H.264
    /// or HEVC picture buffer at 4K, and more than VP9's or AV1's 8 references need at that size.
    static let framesHeld = 6

    /// Opens `data` (a `format` container) and reads its header within `limits`.
    init(data: Data, format: ImageFormat, limits: DecodingLimits, cancellation: ImagingCancellation?) throws(ImagingError) {
        try limits.checkBytes(data.count)
        self.limits = limits
        let watch = VideoWatch(seconds: limits.maxRenderSeconds, cancellation: cancellation)
        demuxer = try VideoDemuxer(data: data, format: format, watch: watch)
        // The container's header, before FFmpeg decodes anything to fill in stream parameters.
        for candidate in demuxer.streams where candidate.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_VIDEO {
            try Self.checkBudget(candidate, limits: limits)
        }
        try Self.findStreamInfo(demuxer, limits: limits)
        // The interrupt may have stopped the stream parameters' read part-way.
        try watch.check()
        let index = av_find_best_stream(demuxer.context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, Int(index) < demuxer.streams.count else {
            throw index == vgn_av_error_exit() ? watch.timeUp : ImagingError(.corruptData, "no video stream in the \(format) file")
        }
        stream = demuxer.streams[Int(index)]
        guard let parameters = stream.pointee.codecpar?.pointee, parameters.width > 0, parameters.height > 0 else {
            throw ImagingError(.corruptData, "the \(format) file's video stream has no frame size")
        }
        try Self.checkBudget(stream, limits: limits)
        let rotation = Self.rotation(of: stream)
        let stored = PixelSize(width: Int(parameters.width), height: Int(parameters.height))
        let upright = rotation % 180 == 0 ? stored : PixelSize(width: stored.height, height: stored.width)
        let codec = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
        let rate = stream.pointee.avg_frame_rate
        var video = VideoInfo(
            duration: demuxer.duration, codec: codec, storedSize: stored, rotation: rotation,
            frameRate: rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil)
        video.tags = demuxer.tags
        let alpha = Self.hasAlpha(AVPixelFormat(rawValue: parameters.format))
        info = ImageInfo(
            format: format, width: upright.width, height: upright.height, bands: alpha ? 4 : 3, hasAlpha: alpha,
            orientation: 1, pages: 1, embeddedThumbnail: nil, video: video)
    }

    /// The frame at `second` (nil: the first frame), turned upright, as 8-bit sRGB (RGBA when the
    /// stream has alpha), in memory.
    func decode(at second: Double?) throws(ImagingError) -> Image {
        let watch = demuxer.watch.takeUnretainedValue()
        let decoder = try VideoFrameDecoder(stream: stream, limits: limits, watch: watch)
        let timeBase = stream.pointee.time_base
        guard timeBase.num > 0, timeBase.den > 0 else { throw ImagingError(.corruptData, "the video stream has no time base") }
        var target: Int64?
        var seeked = false
        if let second, second > 0 {
            let start = stream.pointee.start_time == vgn_av_nopts() ? 0 : stream.pointee.start_time
            let ticks = second / av_q2d(timeBase)
            guard ticks.isFinite, ticks < Double(Int64.max / 2) else {
                throw ImagingError(.invalidArgument, "video second \(second) is out of the stream's range")
            }
            target = start + Int64(ticks.rounded(.down))
            // To the keyframe at or before it; when the container cannot seek, decoding runs from the start.
            seeked = av_seek_frame(demuxer.context, stream.pointee.index, target ?? 0, AVSEEK_FLAG_BACKWARD) >= 0
            try watch.check()
        }
        let frame: VideoFrame
        do {
            frame = try decoder.frame(reaching: target, demuxer: demuxer)
        } catch where seeked && (error.kind == .truncatedData || error.kind == .corruptData) {
            // Some containers (MPEG-TS) seek by timestamp to a packet that is not a keyframe, or
            // to one past the data: nothing decodes from there, so the decode runs from the start.
            guard demuxer.rewind(stream) else { throw error }
            decoder.flush()
            frame = try decoder.frame(reaching: target, demuxer: demuxer)
        }
        // The decoder's frame may be bigger than the header said: checked again before converting.
        let decoded = frame.pointer.pointee
        if Int(decoded.width) != (info.video?.storedSize.width ?? 0) || Int(decoded.height) != (info.video?.storedSize.height ?? 0) {
            try limits.check(Self.cost(width: Int(decoded.width), height: Int(decoded.height), format: decoded.format))
        }
        let image = try VideoFrameConverter.image(of: frame)
        let rotation = info.video?.rotation ?? 0
        return rotation == 0 ? image : try image.rotated(degrees: rotation).materialized()
    }

    /// Refuses a stream whose declared size is over the pixel or memory budget.
    private static func checkBudget(_ stream: UnsafeMutablePointer<AVStream>, limits: DecodingLimits) throws(ImagingError) {
        guard let parameters = stream.pointee.codecpar?.pointee, parameters.width > 0, parameters.height > 0 else { return }
        try limits.check(cost(width: Int(parameters.width), height: Int(parameters.height), format: parameters.format))
    }

    /// What decoding one frame of `width` × `height` in `format` costs: the frame, the frames the
    /// decoder holds beside it (`framesHeld`), and the 8-bit RGB(A) copy.
    static func cost(width: Int, height: Int, format: Int32) -> DecodingCost {
        let pixels = Int.saturating(width, height)
        var frameBytes = Int.saturating(pixels, 3, 2)  // 4:4:4 at 16 bits: the most any format takes
        if format >= 0 {
            let size = av_image_get_buffer_size(AVPixelFormat(rawValue: format), Int32(clamping: width), Int32(clamping: height), 1)
            if size > 0 { frameBytes = Int(size) }
        }
        let memory = Int.saturatingSum(Int.saturating(frameBytes, framesHeld + 1), Int.saturating(pixels, 4))
        return DecodingCost(
            what: "video is \(width)x\(height)", sourcePixels: pixels, decodedPixels: pixels, memoryBytes: memory,
            memoryNote: " (the decoder holds \(framesHeld) frames beside the one it gives)")
    }

    /// Reads the streams' parameters (`avformat_find_stream_info`), which may decode a few
    /// frames: each decoder there is held to the pixel budget and to one thread.
    private static func findStreamInfo(_ demuxer: VideoDemuxer, limits: DecodingLimits) throws(ImagingError) {
        let count = Int(demuxer.context.pointee.nb_streams)
        var options = [OpaquePointer?](repeating: nil, count: max(1, count))
        for index in 0..<count {
            av_dict_set(&options[index], "max_pixels", String(min(limits.maxPixels, Int(Int32.max))), 0)
            av_dict_set(&options[index], "threads", "1", 0)
        }
        let status = options.withUnsafeMutableBufferPointer { avformat_find_stream_info(demuxer.context, $0.baseAddress) }
        for index in options.indices { av_dict_free(&options[index]) }
        if status < 0 { throw demuxer.watch.takeUnretainedValue().error(status, "avformat_find_stream_info") }
    }

    /// The clockwise turn the stream's display matrix asks for (`av_display_rotation_get`, which
    /// gives the counter-clockwise angle), to the nearest quarter turn, as `ffmpeg` autorotates.
    private static func rotation(of stream: UnsafeMutablePointer<AVStream>) -> Int {
        guard let matrix = vgn_av_display_matrix(stream) else { return 0 }
        let angle = av_display_rotation_get(matrix)
        guard angle.isFinite else { return 0 }
        let quarter = Int((-angle / 90).rounded())
        return ((quarter % 4) + 4) % 4 * 90
    }

    /// Whether frames of `format` carry alpha (`AV_PIX_FMT_FLAG_ALPHA`).
    static func hasAlpha(_ format: AVPixelFormat) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
    }
}
#endif
