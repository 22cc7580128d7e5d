#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a loader knows about the bytes it delivered that matters for caching them: the
/// validators for a conditional request later, and until when they may be used without one.
/// The pipeline keeps it beside the original bytes in the disk cache.
public struct ResponseMetadata: Sendable, Codable, Equatable {
    /// The server's entity tag (`ETag`), quotes included.
    public var etag: String?
    /// The server's `Last-Modified`, as sent.
    public var lastModified: String?
    /// Seconds since 1970 after which the bytes must be revalidated before use; nil: fresh until
    /// the cache sweeps them (no `Cache-Control`/`Expires` said otherwise).
    public var expiresAt: Double?

    /// Metadata with these validators and expiry.
    public init(etag: String? = nil, lastModified: String? = nil, expiresAt: Double? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.expiresAt = expiresAt
    }

    /// There is something to make a conditional request with.
    public var hasValidators: Bool { etag != nil || lastModified != nil }

    /// The bytes have expired and can be revalidated.
    public func needsRevalidation(now: Double = Date().timeIntervalSince1970) -> Bool {
        guard hasValidators, let expiresAt else { return false }
        return now >= expiresAt
    }
}

/// Bytes the disk cache holds for a request, handed to the loader to revalidate.
public struct CachedData: Sendable {
    /// The cached bytes.
    public var data: Data
    /// Their validators and expiry.
    public var metadata: ResponseMetadata
}

/// What a loader delivered.
public struct LoadedData: Sendable {
    /// The bytes.
    public var data: Data
    /// How to cache it; nil when the source has nothing to say (files, closures).
    public var metadata: ResponseMetadata?
    /// The loader revalidated `CachedData` and the server said it is unchanged (304): `data` is the
    /// cached bytes.
    public var isNotModified: Bool
    /// False when the source forbids keeping the bytes (`Cache-Control: no-store`): the pipeline
    /// does not put them in the disk cache.
    public var mayBeStored: Bool
    /// The status of the response the bytes came in (200, 206, 304), for the fetch's span; nil
    /// when the source is not HTTP.
    public var statusCode: Int?

    /// What a loader hands back.
    public init(
        data: Data, metadata: ResponseMetadata? = nil, isNotModified: Bool = false, mayBeStored: Bool = true, statusCode: Int? = nil
    ) {
        self.data = data
        self.metadata = metadata
        self.isNotModified = isNotModified
        self.mayBeStored = mayBeStored
        self.statusCode = statusCode
    }
}

/// What the pipeline gives a loader for one load.
public struct DataLoadingContext: Sendable {
    /// The disk cache's expired copy, to revalidate with a conditional request; nil: load afresh.
    public var cached: CachedData?
    /// A streaming loader calls this as bytes arrive, with everything received so far and the
    /// expected total (-1 when unknown); it counts as progress too. Cheap: the pipeline only
    /// looks at the bytes when previews were asked for.
    public var received: @Sendable (_ bytesSoFar: Data, _ expectedTotal: Int64) -> Void
    /// A loader that has counts but not the bytes calls this instead (completed, total or -1).
    public var progress: @Sendable (_ completed: Int64, _ total: Int64) -> Void

    /// A context for one load.
    public init(
        cached: CachedData? = nil, received: @escaping @Sendable (Data, Int64) -> Void,
        progress: @escaping @Sendable (Int64, Int64) -> Void
    ) {
        self.cached = cached
        self.received = received
        self.progress = progress
    }
}
