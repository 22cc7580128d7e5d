/// A decoded image as the pipeline hands it out: in memory (materialised), upright.
public struct ImageContainer: Sendable {
    public var image: Image
    /// True for a preview decoded from partial data, replaced later by the final image.
    public var isPreview: Bool

    public init(image: Image, isPreview: Bool = false) {
        self.image = image
        self.isPreview = isPreview
    }
}

/// The result of an `ImageTask`.
public struct ImageResponse: Sendable {
    public enum CacheType: Sendable, Equatable { case memory, disk }

    public var container: ImageContainer
    public var request: ImageRequest
    /// Where the image came from, when it came from a cache.
    public var cacheType: CacheType?

    public var image: Image { container.image }
}
