extension ImageRequest {
    /// The thumbnail a request decoded whole makes after its first steps (a trim, a crop of the
    /// source): its `ImageProcessors.Thumbnail`'s options; nil when it has none.
    package var wholeThumbnail: ThumbnailOptions? {
        processors.lazy.compactMap { ($0 as? ImageProcessors.Thumbnail)?.options }.first
    }

    /// Which frames of an animated source the result keeps (`ThumbnailOptions.frames`): the
    /// thumbnail's on load, else that of the thumbnail made after the source is decoded whole;
    /// `.first` for a request with neither.
    package var keptFrames: FrameSelection {
        (thumbnail ?? wholeThumbnail)?.frames ?? .first
    }
}
