/// The key of a decoded (and processed) image: image id, thumbnail options or the picture a
/// whole decode reads, and processors.
/// Built once per request, hashed once; compared field by field, never through strings.
/// `@unchecked Sendable`: the `AnyHashable`s are processors' `hashableIdentifier`s, immutable
/// values made from `Sendable` processors.
struct ImageKey: Hashable, @unchecked Sendable {
    let imageID: String
    let thumbnail: ThumbnailOptions?
    let picture: SourcePicture
    let processors: [AnyHashable]
    private let hash: Int

    init(imageID: String, thumbnail: ThumbnailOptions?, picture: SourcePicture = .first, processors: [AnyHashable]) {
        self.imageID = imageID
        self.thumbnail = thumbnail
        self.picture = picture
        self.processors = processors
        var hasher = Hasher()
        hasher.combine(imageID)
        hasher.combine(thumbnail)
        hasher.combine(picture)
        hasher.combine(processors)
        hash = hasher.finalize()
    }

    init(_ request: ImageRequest) {
        self.init(imageID: request.effectiveImageID, thumbnail: request.thumbnail, picture: request.picture,
                  processors: request.processors.map(\.hashableIdentifier))
    }

    /// The key of the first `count` processors' result.
    func prefix(_ count: Int) -> ImageKey {
        count == processors.count ? self : ImageKey(imageID: imageID, thumbnail: thumbnail, picture: picture, processors: Array(processors.prefix(count)))
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (a: ImageKey, b: ImageKey) -> Bool {
        a.hash == b.hash && a.imageID == b.imageID && a.thumbnail == b.thumbnail && a.picture == b.picture && a.processors == b.processors
    }
}

/// A node's key in the task graph: what the node makes, plus the request options that change how
/// its bytes are found (cache only, reload, disk reads and writes). Requests that differ in those
/// never share a node: a cache-only request must not receive another request's network load, and
/// a normal request must not fail because it joined a cache-only one.
struct GraphKey<Key: Hashable & Sendable>: Hashable, Sendable {
    let key: Key
    let loading: ImageRequest.Options

    init(_ key: Key, _ request: ImageRequest) {
        self.key = key
        loading = request.options.intersection(.changingHowDataIsFound)
    }
}

/// The memory cache's key for a request.
public struct ImageCacheKey: Hashable, Sendable {
    let key: ImageKey
    /// The key of `request`'s final image: its image id, thumbnail options and processors.
    public init(request: ImageRequest) { key = ImageKey(request) }
}

/// Stable disk-cache key strings.
enum DiskKeys {
    /// The original bytes: the image id.
    static func original(_ request: ImageRequest) -> String { request.effectiveImageID }

    /// An encoded processed image: image id, thumbnail options (or the picture a whole decode
    /// reads, when not the first) and processor identifiers.
    static func processed(_ request: ImageRequest) -> String {
        var parts = [request.effectiveImageID]
        if let thumbnail = request.thumbnail { parts.append(thumbnail.identifier) }
        if request.picture != .first { parts.append("picture:\(request.picture.page),\(request.picture.videoSecond.map { String($0) } ?? "-")") }
        parts += request.processors.map(\.identifier)
        return parts.joined(separator: "|")
    }

    /// An encoded result: the processed key and the encoding's id.
    static func encoded(_ request: ImageRequest, _ encoding: OutputEncoding) -> String {
        processed(request) + "|encoded:" + encoding.id
    }
}
