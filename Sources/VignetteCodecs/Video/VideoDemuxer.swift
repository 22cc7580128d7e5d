#if Video
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteFFmpeg
internal import CVignetteLibraryLoader

/// An FFmpeg demuxer over bytes in memory: a custom `AVIOContext` reads them, the container's own
/// demuxer is forced (`av_find_input_format`, no probing of others), nested opens are refused
/// (`io_open`, `protocol_whitelist`, `format_whitelist`: no file, network, HLS segment, concat
/// entry or MOV data reference is ever opened), the header read is bounded (`probesize`,
/// `max_analyze_duration`, `max_streams`), and every blocking call stops at the deadline or on
/// cancellation through the interrupt callback.
final class VideoDemuxer {
    let context: UnsafeMutablePointer<AVFormatContext>
    private let io: UnsafeMutablePointer<AVIOContext>
    private let reader: Unmanaged<MemoryReader>
    let watch: Unmanaged<VideoWatch>
    private let format: ImageFormat

    /// Bytes of the file FFmpeg may read to find the streams and their parameters.
    static let probeBytes: Int64 = 5_000_000
    /// Stream time FFmpeg may read to find the streams' parameters, in `AV_TIME_BASE` units (5 s).
    static let analyzeDuration: Int64 = 5 * Int64(AV_TIME_BASE)
    /// Most streams a file may declare.
    static let maxStreams: Int32 = 32
    /// The demuxers that may run, for the nested contexts some demuxers make.
    static let formatWhitelist = "mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,mpegts,flv"

    /// Opens `data` as `format` (one of `ImageFormat.videoFormats`) and reads its header.
    init(data: Data, format: ImageFormat, watch: VideoWatch) throws(ImagingError) {
        try Self.loadFFmpeg()
        VideoDemuxer.quietLogs
        VideoDemuxer.allocationCap
        if format == .mp4 || format == .mov { try MP4SampleTables.check(data) }
        guard let name = VideoContainer.demuxer(for: format), let input = av_find_input_format(name) else {
            throw ImagingError(.unsupportedFormat, "no FFmpeg demuxer for \(format)")
        }
        let bufferSize = 64 << 10
        guard let buffer = av_malloc(bufferSize) else { throw ImagingError(.operationFailed, "av_malloc failed") }
        let reader = Unmanaged.passRetained(MemoryReader(data))
        guard
            let io = avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Int32(bufferSize), 0, reader.toOpaque(), MemoryReader.read, nil,
                MemoryReader.seek)
        else {
            av_free(buffer)
            reader.release()
            throw ImagingError(.operationFailed, "avio_alloc_context failed")
        }
        guard var context = avformat_alloc_context() else {
            VideoDemuxer.free(io)
            reader.release()
            throw ImagingError(.operationFailed, "avformat_alloc_context failed")
        }
        let watched = Unmanaged.passRetained(watch)
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.probesize = Self.probeBytes
        context.pointee.max_analyze_duration = Self.analyzeDuration
        context.pointee.max_streams = Self.maxStreams
        context.pointee.interrupt_callback = AVIOInterruptCB(callback: VideoWatch.interrupt, opaque: watched.toOpaque())
        // Every nested open (MOV data references, HLS, concat, image sequences) is refused.
        context.pointee.io_open = { _, _, _, _, _ in vgn_av_error_eperm() }
        var options: OpaquePointer?
        av_dict_set(&options, "format_whitelist", Self.formatWhitelist, 0)
        av_dict_set(&options, "protocol_whitelist", "none", 0)
        av_dict_set(&options, "enable_drefs", "0", 0)
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let status = avformat_open_input(&opened, nil, input, &options)
        av_dict_free(&options)
        guard status >= 0, let made = opened else {
            // avformat_open_input frees the context on failure; the I/O context is ours.
            VideoDemuxer.free(io)
            reader.release()
            watched.release()
            throw watch.error(status, "avformat_open_input")
        }
        context = made
        self.context = context
        self.io = io
        self.reader = reader
        self.watch = watched
        self.format = format
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = self.context
        avformat_close_input(&context)
        VideoDemuxer.free(io)
        reader.release()
        watch.release()
    }

    private static func free(_ io: UnsafeMutablePointer<AVIOContext>) {
        av_freep(&io.pointee.buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = io
        avio_context_free(&context)
    }

    /// Opens FFmpeg's libraries (`vgn_ffmpeg_load`, once per process) before any FFmpeg call; a
    /// missing library is `.unsupportedFormat` naming it.
    private static func loadFFmpeg() throws(ImagingError) {
        var message = [CChar](repeating: 0, count: 512)
        guard vgn_ffmpeg_load(&message, message.count) == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagingError(.unsupportedFormat, "video needs FFmpeg's libraries: \(text)")
        }
    }

    /// FFmpeg logs to stderr by default; a library keeps quiet (its errors come back as codes).
    private static let quietLogs: Void = av_log_set_level(AV_LOG_QUIET)

    /// The most one FFmpeg allocation may take (`av_max_alloc`, process-wide; FFmpeg's own default
    /// is 2 GiB): a plane of a 16-bit 100-MP frame fits, an index sized from a lying header does
    /// not, and fails as `ENOMEM` (`.limitExceeded`) instead of taking the memory.
    static let largestAllocation = 256 << 20
    private static let allocationCap: Void = av_max_alloc(largestAllocation)

    /// Whether FFmpeg has asked for bytes past the end of the data.
    var wentPastEnd: Bool { reader.takeUnretainedValue().wentPastEnd }

    /// Back to the start of the stream, after a seek that landed where nothing decodes: a
    /// transport stream (no index; a timestamp search lands near, not on, its first keyframe) to
    /// byte 0, every other container to the stream's first timestamp (`av_seek_frame`).
    func rewind(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        if format == .mpegts, av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE) >= 0 { return true }
        let start = stream.pointee.start_time == vgn_av_nopts() ? 0 : stream.pointee.start_time
        if av_seek_frame(context, stream.pointee.index, start, AVSEEK_FLAG_BACKWARD) >= 0 { return true }
        return av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE) >= 0
    }

    /// The streams (`nb_streams` of them).
    var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
    }

    /// The container's metadata tags (`av_dict_get` over `AVFormatContext.metadata`), the
    /// first `VideoInfo.maxTags`, each value cut to `VideoInfo.maxTagBytes`.
    var tags: [String: String] {
        var tags: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while tags.count < VideoInfo.maxTags, let next = av_dict_get(context.pointee.metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = next.pointee.key, let value = next.pointee.value else { continue }
            let text = String(decoding: UnsafeRawBufferPointer(start: UnsafeRawPointer(value), count: min(strlen(value), VideoInfo.maxTagBytes)), as: UTF8.self)
            tags[String(cString: key)] = text
        }
        return tags
    }

    /// The duration the container declares, in seconds.
    var duration: Double? {
        let value = context.pointee.duration
        guard value != vgn_av_nopts(), value > 0 else { return nil }
        return Double(value) / Double(AV_TIME_BASE)
    }
}

/// The bytes FFmpeg reads through the custom `AVIOContext`, and where it is in them.
final class MemoryReader {
    let data: Data
    var position = 0
    /// Whether FFmpeg asked for bytes past the end (a read at the end, a seek beyond it): with a
    /// stream that stops early, the sign of a file cut short.
    var wentPastEnd = false

    init(_ data: Data) { self.data = data }

    /// `read_packet`: up to `size` bytes from the position; `AVERROR_EOF` at the end.
    static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = { opaque, buffer, size in
        guard let opaque, let buffer, size > 0 else { return vgn_av_error_eof() }
        let reader = Unmanaged<MemoryReader>.fromOpaque(opaque).takeUnretainedValue()
        let count = min(Int(size), reader.data.count - reader.position)
        guard count > 0 else {
            reader.wentPastEnd = true
            return vgn_av_error_eof()
        }
        let position = reader.position
        let copied = reader.data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return false }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + position, byteCount: count)
            return true
        }
        guard copied else { return vgn_av_error_eof() }
        reader.position += count
        return Int32(count)
    }

    /// `seek`: to an offset from the start, the position or the end; `AVSEEK_SIZE` asks the size.
    static let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
        guard let opaque else { return -1 }
        let reader = Unmanaged<MemoryReader>.fromOpaque(opaque).takeUnretainedValue()
        let size = Int64(reader.data.count)
        if whence & vgn_avseek_size() != 0 { return size }
        let base: Int64
        switch whence & ~Int32(AVSEEK_FORCE) {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = Int64(reader.position)
        case SEEK_END: base = size
        default: return -1
        }
        let (target, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, target >= 0, target <= size else {
            reader.wentPastEnd = reader.wentPastEnd || (!overflow && target > size)
            return -1
        }
        reader.position = Int(target)
        return target
    }
}

/// The deadline and the cancellation a video decode runs under, read by FFmpeg's interrupt
/// callback during every blocking call and by the decode loop between frames.
final class VideoWatch: @unchecked Sendable {
    let deadline: ContinuousClock.Instant
    let seconds: Int
    let cancellation: ImagingCancellation?

    init(seconds: Int, cancellation: ImagingCancellation?) {
        self.seconds = seconds
        self.deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
        self.cancellation = cancellation
    }

    /// Throws `.cancelled` or `.limitExceeded` when the decode must stop.
    func check() throws(ImagingError) {
        if cancellation?.isCancelled == true { throw ImagingError(.cancelled, "cancelled while decoding the video") }
        if ContinuousClock.now >= deadline { throw timeUp }
    }

    var timeUp: ImagingError {
        ImagingError(.limitExceeded, "decoding the video took longer than the limit of \(seconds) s")
    }

    /// Whether the decode must stop now.
    var mustStop: Bool { cancellation?.isCancelled == true || ContinuousClock.now >= deadline }

    /// FFmpeg's interrupt callback: non-zero stops the blocking call with `AVERROR_EXIT`.
    static let interrupt: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
        guard let opaque else { return 0 }
        return Unmanaged<VideoWatch>.fromOpaque(opaque).takeUnretainedValue().mustStop ? 1 : 0
    }

    /// The error for an FFmpeg status from `call`: the deadline's or the cancellation's when the
    /// interrupt stopped it, else FFmpeg's own message (`av_strerror`) as the kind it stands for.
    func error(_ status: Int32, _ call: String) -> ImagingError {
        if cancellation?.isCancelled == true { return ImagingError(.cancelled, "cancelled while decoding the video") }
        if status == vgn_av_error_exit() || ContinuousClock.now >= deadline { return timeUp }
        let message = "\(call): \(VideoWatch.describe(status))"
        if status == vgn_av_error_eof() { return ImagingError(.truncatedData, message) }
        if status == -Int32(ENOMEM) { return ImagingError(.limitExceeded, message) }
        if status == vgn_av_error_eperm() || status == -Int32(ENOSYS) { return ImagingError(.unsupportedFormat, message) }
        return ImagingError(.corruptData, message)
    }

    /// FFmpeg's words for `status`.
    static func describe(_ status: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(status, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
