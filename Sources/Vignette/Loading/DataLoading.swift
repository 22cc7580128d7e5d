#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import VignetteSupport

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
    /// What kind of failure it is, to branch on (and to answer: `imageFailure`).
    public enum Kind: Sendable, Hashable {
        /// There is no such source: no file at the path.
        case notFound
        /// No loader of this pipeline reads sources of this kind (an http URL without VignetteHTTP's loader).
        case noLoader
        /// Loading failed for another reason.
        case failed
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// What went wrong, in full (it may name the path: for logs, not for clients).
    public let message: String
    /// An error of `kind` saying `message`.
    public init(_ kind: Kind = .failed, _ message: String) {
        self.kind = kind
        self.message = message
    }
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

    /// Reads the file (`InputFile.read`, on a thread of `BlockingExecutor.shared`: a pipe may keep
    /// it waiting, which must not hold a thread of Swift's cooperative pool) or runs the closure;
    /// `.url` sources throw.
    public func loadData(for request: ImageRequest, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Data {
        switch request.source {
        case .file(let path):
            let limits = limits
            let data = try await BlockingExecutor.shared.run { try FileDataLoader.read(path, limits: limits) }
            progress(Int64(data.count), Int64(data.count))
            return data
        case .data(_, let load):
            let data = try await load()
            progress(Int64(data.count), Int64(data.count))
            return data
        case .url(let url, _):
            throw DataLoadingError(.noLoader, "\(url): no loader for http(s) URLs is configured (use VignetteHTTP's loader)")
        }
    }

    /// The bytes of the file at `path` (`InputFile.read`); a file that is not there is
    /// `DataLoadingError(.notFound)`, other failures the `ImagingError` of the read.
    static func read(_ path: String, limits: DecodingLimits) throws -> Data {
        do throws(ImagingError) {
            return try InputFile.read(path, limits: limits)
        } catch {
            if error.kind == .io, isMissing(path) { throw DataLoadingError(.notFound, error.message) }
            throw error
        }
    }

    /// Whether nothing readable is at `path`: no such file (or a folder on the way is not one),
    /// or a folder where a file was asked for. Asked after a read failed, to tell a missing
    /// source from one that is there but cannot be read.
    static func isMissing(_ path: String) -> Bool {
        do throws(SystemError) {
            return try FileStatus(path: path).kind == .directory
        } catch {
            return error.code == ENOENT || error.code == ENOTDIR
        }
    }
}
