/// A decoded image as the pipeline hands it out: in memory (materialised), upright.
public struct ImageContainer: Sendable {
    /// The pixels, in memory and upright.
    public var image: Image
    /// True for a preview decoded from partial data, replaced later by the final image.
    public var isPreview: Bool

    /// A container of `image`, a preview or the final image.
    public init(image: Image, isPreview: Bool = false) {
        self.image = image
        self.isPreview = isPreview
    }
}

/// The result of an `ImageTask`.
public struct ImageResponse: Sendable {
    /// Which cache a response came from.
    public enum CacheType: Sendable, Equatable {
        /// The memory cache (`ImageCache`, or `EncodedImageCache` for encoded results).
        case memory
        /// The local disk cache (`DataCache`).
        case disk
        /// The cache shared with other processes (`Configuration.sharedCache`, e.g. Redis).
        case shared
    }

    /// The image and whether it is a preview.
    public var container: ImageContainer
    /// The request it answers.
    public var request: ImageRequest
    /// Where the image came from, when it came from a cache.
    public var cacheType: CacheType?

    /// The image.
    public var image: Image { container.image }
}
