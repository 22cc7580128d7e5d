/// What a video's header says, beside the poster's size in `ImageInfo` (read by FFmpeg's demuxer,
/// `avformat_open_input` and `avformat_find_stream_info`; Video trait).
public struct VideoInfo: Sendable, Hashable, Codable {
    /// The duration in seconds, when the container gives one (`AVFormatContext.duration`).
    public var duration: Double?
    /// The video stream's codec, by FFmpeg's short name ("h264", "hevc", "vp9", "av1", "mjpeg").
    public var codec: String
    /// The stored (coded) size of the frames, before `rotation`.
    public var storedSize: PixelSize
    /// The clockwise turn the display matrix (or `rotate` tag) asks for, 0, 90, 180 or 270; the
    /// poster and `ImageInfo`'s width and height have it applied.
    public var rotation: Int
    /// Frames a second, when the stream says (`AVStream.avg_frame_rate`).
    public var frameRate: Double?
    /// The container's metadata tags as FFmpeg names them (`AVFormatContext.metadata`:
    /// "major_brand", "encoder", "creation_time", …), at most `VideoInfo.maxTags` of them.
    public var tags: [String: String] = [:]

    /// The most tags kept, and the longest value (in bytes): a header may declare many and long.
    public static let maxTags = 64, maxTagBytes = 1024

    /// A video's header facts.
    public init(duration: Double?, codec: String, storedSize: PixelSize, rotation: Int, frameRate: Double?) {
        self.duration = duration
        self.codec = codec
        self.storedSize = storedSize
        self.rotation = rotation
        self.frameRate = frameRate
    }
}
