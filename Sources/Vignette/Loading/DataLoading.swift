#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads the bytes of a request's source. The pipeline calls it on its loading stage, at most
/// `Configuration.loadingConcurrency` at once, and cancels the calling task when nobody wants the
/// data any more.
///
/// A loader implements `loadData(for:progress:)`; a loader that streams (HTTP) also implements
/// `loadData(for:context:)`, which hands the bytes received so far to the pipeline (for progress
/// and previews) and can revalidate the disk cache's expired copy.
public protocol DataLoading: Sendable {
    /// The bytes of `request.source`; `progress(completed, total)` may be called as they arrive
    /// (`total` is -1 when unknown).
    func loadData(for request: ImageRequest, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Data

    /// The bytes of `request.source` with what is known about caching them. The default calls
    /// `loadData(for:progress:)`.
    func loadData(for request: ImageRequest, context: DataLoadingContext) async throws -> LoadedData
}

extension DataLoading {
    /// Calls `loadData(for:progress:)`; nothing to say about caching.
    public func loadData(for request: ImageRequest, context: DataLoadingContext) async throws -> LoadedData {
        LoadedData(data: try await loadData(for: request, progress: context.progress))
    }
}

/// An error of the built-in loaders.
public struct DataLoadingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Reads `.file` sources (within the pipeline's byte budget) and runs `.data` closures. `.url`
/// sources need the HTTP loader of VignetteHTTP.
public struct FileDataLoader: DataLoading {
    /// The byte budget a file must fit (`maxInputBytes`).
    public var limits: DecodingLimits

    /// A loader within `limits`.
    public init(limits: DecodingLimits = .untrusted) { self.limits = limits }

    /// Reads the file (`InputFile.read`, on a Dispatch thread: a pipe may keep it waiting) or runs
    /// the closure; `.url` sources throw.
    public func loadData(for request: ImageRequest, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Data {
        switch request.source {
        case .file(let path):
            let limits = limits
            let data = try await BlockingCall.run { try InputFile.read(path, limits: limits) }
            progress(Int64(data.count), Int64(data.count))
            return data
        case .data(_, let load):
            let data = try await load()
            progress(Int64(data.count), Int64(data.count))
            return data
        case .url(let url):
            throw DataLoadingError("\(url): no loader for http(s) URLs is configured (use VignetteHTTP's loader)")
        }
    }
}
