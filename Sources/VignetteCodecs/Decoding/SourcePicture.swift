/// Which picture of a source that holds several a whole decode reads (`ImageDecoder`,
/// `ImageRequest.picture`): a PDF's page and a video's frame. Other sources ignore it; a
/// thumbnail carries the same choice in `ThumbnailOptions.page` and `.videoSecond`.
public struct SourcePicture: Hashable, Sendable {
    /// The page of a PDF, 0 for the first (libvips' `pdfload` `page`).
    public var page: Int
    /// For a video: the first frame at or after this second, as `ffmpeg -ss` gives it (through
    /// `av_seek_frame` and libavcodec); nil for the first frame.
    public var videoSecond: Double?

    /// The picture `page` of a PDF, or the frame at `videoSecond` of a video.
    public init(page: Int = 0, videoSecond: Double? = nil) {
        self.page = page
        self.videoSecond = videoSecond
    }

    /// The first page, the first frame: what a source with one picture has.
    public static let first = SourcePicture()
}
