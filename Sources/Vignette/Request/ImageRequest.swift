#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What to load and how to process it. A value type with copy-on-write storage: copies share one
/// storage object until one of them is changed.
public struct ImageRequest: Sendable, CustomStringConvertible {
    final class Storage: @unchecked Sendable {
        // Mutated only while uniquely referenced (copy-on-write), so sharing it is safe.
        var source: Source {
            didSet { sourceID = source.id }
        }
        /// `source.id`, read once: for a file it costs a `stat(2)`, which a memory-cache hit
        /// should not pay on every call.
        private(set) var sourceID: String
        var processors: [any ImageProcessing]
        var thumbnail: ThumbnailOptions?
        var priority: Priority
        var options: Options
        var userInfo: [String: any Sendable]
        var imageID: String?
        var decodingLimits: DecodingLimits?
        var picture = SourcePicture.first

        init(source: Source, sourceID: String? = nil) {
            self.source = source
            self.sourceID = sourceID ?? source.id
            processors = []
            thumbnail = nil
            priority = .normal
            options = []
            userInfo = [:]
            imageID = nil
        }

        func copy() -> Storage {
            let copy = Storage(source: source, sourceID: sourceID)
            copy.processors = processors
            copy.thumbnail = thumbnail
            copy.priority = priority
            copy.options = options
            copy.userInfo = userInfo
            copy.imageID = imageID
            copy.decodingLimits = decodingLimits
            copy.picture = picture
            return copy
        }
    }

    private(set) var storage: Storage

    /// A request for `source`, decoded as is unless `thumbnail` says otherwise, then run through
    /// `processors` in order. `imageID`, when given, is the id caches and coalescing use instead
    /// of the source's (see `imageID`).
    public init(
        source: Source, imageID: String? = nil, processors: [any ImageProcessing] = [], thumbnail: ThumbnailOptions? = nil,
        priority: Priority = .normal, options: Options = [], userInfo: [String: any Sendable] = [:]
    ) {
        storage = Storage(source: source)
        storage.imageID = imageID
        storage.processors = processors
        storage.thumbnail = thumbnail
        storage.priority = priority
        storage.options = options
        storage.userInfo = userInfo
    }

    /// A request for the file at `path`.
    public init(path: String, processors: [any ImageProcessing] = [], thumbnail: ThumbnailOptions? = nil) {
        self.init(source: .file(path), processors: processors, thumbnail: thumbnail)
    }

    /// A request for `url`: a file URL, or an http(s) URL loaded by the pipeline's data loader.
    /// `imageID` names the image for caches instead of the URL, e.g. a signed URL without its
    /// expiring signature, so every signature of one image shares its cache entries.
    public init(url: URL, imageID: String? = nil, processors: [any ImageProcessing] = [], thumbnail: ThumbnailOptions? = nil) {
        self.init(source: url.isFileURL ? .file(url.path) : .url(url), imageID: imageID, processors: processors, thumbnail: thumbnail)
    }

    private mutating func mutate(_ body: (Storage) -> Void) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        body(storage)
    }

    /// Where the bytes come from; setting it reads the new source's identity (a file's `stat(2)`) once.
    public var source: Source {
        get { storage.source }
        set { mutate { $0.source = newValue } }
    }
    /// Steps run in order over the decoded (or thumbnailed) image, on the pipeline's processing threads.
    public var processors: [any ImageProcessing] {
        get { storage.processors }
        set { mutate { $0.processors = newValue } }
    }
    /// Decode as a thumbnail (shrink-on-load, embedded thumbnails) instead of at full size.
    public var thumbnail: ThumbnailOptions? {
        get { storage.thumbnail }
        set { mutate { $0.thumbnail = newValue } }
    }
    /// How urgent the request is; work shared with other requests runs at the most urgent one's.
    public var priority: Priority {
        get { storage.priority }
        set { mutate { $0.priority = newValue } }
    }
    /// Cache and loading switches (`Options`).
    public var options: Options {
        get { storage.options }
        set { mutate { $0.options = newValue } }
    }
    /// Values of your own that travel with the request; the pipeline does not read them.
    public var userInfo: [String: any Sendable] {
        get { storage.userInfo }
        set { mutate { $0.userInfo = newValue } }
    }
    /// Overrides the id the caches use for the source, e.g. a URL without its signature query.
    public var imageID: String? {
        get { storage.imageID }
        set { mutate { $0.imageID = newValue } }
    }
    /// Limits of this request's own: each may only lower the pipeline's
    /// (`Configuration.decodingLimits`), see `limits(within:)`. Requests with other limits must
    /// have other image ids (`ImageRecipe.request(for:imageID:limits:)` sees to it), since
    /// caches and shared work are keyed by the image id, not by the limits.
    public var decodingLimits: DecodingLimits? {
        get { storage.decodingLimits }
        set { mutate { $0.decodingLimits = newValue } }
    }

    /// The page of a PDF or the frame of a video that a whole decode (no `thumbnail`) reads; the
    /// first by default. A thumbnail reads the one its options name (`ThumbnailOptions.page`, `.videoSecond`).
    public var picture: SourcePicture {
        get { storage.picture }
        set { mutate { $0.picture = newValue } }
    }

    /// `configured`, lowered by `decodingLimits` where those are lower.
    public func limits(within configured: DecodingLimits) -> DecodingLimits {
        guard let own = storage.decodingLimits else { return configured }
        var limits = configured
        limits.maxPixels = min(limits.maxPixels, own.maxPixels)
        limits.maxSourcePixels = min(limits.maxSourcePixels, own.maxSourcePixels)
        limits.maxMemoryBytes = min(limits.maxMemoryBytes, own.maxMemoryBytes)
        limits.maxInputBytes = min(limits.maxInputBytes, own.maxInputBytes)
        limits.maxFrames = min(limits.maxFrames, own.maxFrames)
        limits.maxAnimationFramePixels = min(limits.maxAnimationFramePixels, own.maxAnimationFramePixels)
        return limits
    }

    /// Whether the result is more than the decoded original: processors or a thumbnail. What the
    /// disk cache stores under `DataCachePolicy.automatic` turns on it.
    public var hasProcessing: Bool { !storage.processors.isEmpty || storage.thumbnail != nil }

    /// Whether the memory caches are read for this request (its options allow it).
    var readsMemoryCache: Bool { !options.contains(.disableMemoryCacheReads) && !options.contains(.reloadIgnoringCachedData) }

    /// The id caches and coalescing use for the source: `imageID` when set, else the source's id.
    public var effectiveImageID: String { storage.imageID ?? storage.sourceID }

    /// The image id and the processors' identifiers, for logs.
    public var description: String {
        "ImageRequest(\(effectiveImageID), processors: [\(processors.map(\.identifier).joined(separator: ", "))])"
    }
}

extension ImageRequest {
    /// Where the bytes come from.
    public enum Source: Sendable {
        /// A local file.
        case file(String)
        /// An http(s) URL, loaded by the pipeline's `DataLoading`. `host`, when given, is sent as
        /// the `Host` header instead of the URL's: a caller that resolved and checked the host
        /// itself puts the checked address in the URL (so the connection goes to it, whatever the
        /// DNS answers next) and the real host here. It is no part of the id.
        case url(URL, host: String? = nil)
        /// Bytes produced by `load`; `id` names them for caches and coalescing.
        case data(id: String, load: @Sendable () async throws -> Data)

        /// The id caches and coalescing use. A file's id carries its identity as well as its path
        /// (size and modification time, from `stat(2)`), so a file edited in place is a new image
        /// for every cache; a file that cannot be stat'ed has its path only. An `ImageRequest`
        /// reads it once, when it is made (or its source is set): a request made after the file
        /// changed gets the new image, a request value kept and reused keeps the identity it was
        /// made with.
        public var id: String {
            switch self {
            case .file(let path): "file://\(path)" + FileIdentity.suffix(path)
            case .url(let url, _): url.absoluteString
            case .data(let id, _): id
            }
        }
    }

    /// How urgent a request is; shared work runs at its most urgent subscriber's priority.
    public enum Priority: Int, Sendable, Comparable, CaseIterable {
        case veryLow, low, normal, high, veryHigh

        /// Orders priorities from `veryLow` to `veryHigh`.
        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    /// Cache and loading switches.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The option bits.
        public let rawValue: Int
        /// Options from their bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Do not look in the memory caches (decoded images, encoded bytes).
        public static let disableMemoryCacheReads = Options(rawValue: 1 << 0)
        /// Do not store the result in the memory caches.
        public static let disableMemoryCacheWrites = Options(rawValue: 1 << 1)
        /// Do not look in the disk cache (`DataCache`).
        public static let disableDiskCacheReads = Options(rawValue: 1 << 2)
        /// Do not store anything in the disk cache.
        public static let disableDiskCacheWrites = Options(rawValue: 1 << 3)
        /// Only what the caches hold; fail with `ImagePipelineError.dataMissingInCache` otherwise.
        public static let returnCacheDataDontLoad = Options(rawValue: 1 << 4)
        /// Skip cache reads (memory and disk) and load again; results are still stored.
        public static let reloadIgnoringCachedData = Options(rawValue: 1 << 5)

        /// Neither read nor write the memory caches.
        public static let disableMemoryCache: Options = [.disableMemoryCacheReads, .disableMemoryCacheWrites]
        /// The options that change where a request's bytes come from or go: the task graph keys
        /// nodes by them too.
        static let changingHowDataIsFound: Options = [
            .disableDiskCacheReads, .disableDiskCacheWrites, .returnCacheDataDontLoad, .reloadIgnoringCachedData,
        ]
        /// Neither read nor write the disk cache.
        public static let disableDiskCache: Options = [.disableDiskCacheReads, .disableDiskCacheWrites]
    }
}
