#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Vignette
import VignetteHTTP
import VignetteSupport

/// http(s) and s3 inputs, loaded through an `ImagePipeline` over VignetteHTTP's loader: equal URLs in
/// flight share one download, and the bytes stay in a disk cache for the run (the `--cache`
/// folder when given, else a temporary folder removed at the end), so a URL given twice is
/// fetched once. An `ImagePrefetcher` fetches ahead of the jobs.
final class RemoteInputs: Sendable {
    private let pipeline: ImagePipeline
    private let loader: HTTPDataLoader
    private let temporaryFolder: String?
    /// Fetches the URLs ahead of the jobs into the run's disk cache, so that downloads overlap with
    /// thumbnailing however few jobs there are.
    private let prefetcher: ImagePrefetcher
    /// Downloads under way, so that Ctrl-C can stop them rather than wait for slow servers.
    private let downloads = Locked<(stopped: Bool, next: Int, tasks: [Int: Task<Void, Never>])>((false, 0, [:]))

    /// Whether `input` is read over the network: an http(s), s3 or gs URL.
    static func isURL(_ input: String) -> Bool {
        let lowered = input.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || S3Location.hasScheme(input)
    }

    /// A loader for this run's URLs. The downloads are kept in `folder` (with `--cache DIR`, its
    /// `originals` subfolder: a cache of its own, so downloads never evict thumbnails), else in a
    /// temporary folder removed by `finish()`. `s3` reads s3:// (and gs://) URLs.
    init(folder: String?, limits: DecodingLimits, s3: S3Configuration? = nil) throws {
        let dataCache: DataCache
        if let folder {
            dataCache = try DataCache(path: folder)
            temporaryFolder = nil
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-downloads-\(UUID().uuidString)").path
            dataCache = try DataCache(path: folder)
            temporaryFolder = folder
        }
        loader = HTTPDataLoader(configuration: HTTPDataLoader.Configuration(maximumResponseSize: limits.maxInputBytes, s3: s3))
        pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(
            dataLoader: loader, imageCache: nil, dataCache: dataCache, dataCachePolicy: .storeOriginalData,
            decodingLimits: limits))
        prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .diskCache, maxConcurrentRequestCount: 4)
    }

    /// How many inputs ahead of the one starting are fetched: enough to keep the network busy,
    /// few enough that the disk cache never evicts bytes a job has yet to read.
    static let lookahead = 8

    /// Input `position` of `inputs` (in processing order) is starting: fetches the URLs among the
    /// next `lookahead` inputs, four at a time at low priority (those fetched or under way are
    /// skipped). A job asking for one shares its download or finds it on disk.
    func prefetch(after position: Int, of inputs: [String]) {
        let upcoming = inputs.dropFirst(position + 1).prefix(RemoteInputs.lookahead)
        prefetcher.startPrefetching(with: upcoming.filter(RemoteInputs.isURL).compactMap { URL(string: $0) })
    }

    /// Writes the downloads kept for later runs, or removes the run's temporary download folder.
    func finish() {
        prefetcher.stopPrefetching()
        let pipeline = pipeline
        AsyncBridge.wait { await pipeline.flushDiskCache() }
        if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) }
    }

    /// The bytes at `url`, waiting on the calling (Dispatch) thread. Failures are `ImagingError`s
    /// whose message names the HTTP status, the limit or the network problem.
    func data(at url: String) throws(ImagingError) -> Data {
        guard let parsed = URL(string: url), parsed.host != nil else { throw ImagingError(.invalidArgument, "not a valid URL") }
        let pipeline = pipeline
        var id: Int?
        let outcome = AsyncBridge.wait(started: { task in
            id = downloads.withLock { downloads -> Int? in
                guard !downloads.stopped else { return nil }
                downloads.next += 1
                downloads.tasks[downloads.next] = task
                return downloads.next
            }
            if id == nil { task.cancel() }
        }) { () async throws(ImagePipelineError) -> Data in
            try await pipeline.data(for: ImageRequest(url: parsed))
        }
        if let id { _ = downloads.withLock { $0.tasks.removeValue(forKey: id) } }
        return try outcome.mapError(RemoteInputs.imagingError).get()
    }

    /// The objects under an `s3://BUCKET/PREFIX` location (ListObjectsV2, every page), as s3 URLs,
    /// waiting on the calling thread. Failures are `ImagingError`s naming S3's status and code.
    func objects(under location: S3Location) throws(ImagingError) -> [S3Location] {
        let loader = loader
        return try AsyncBridge.wait { () async throws(ImagingError) -> [S3Location] in
            do {
                return try await loader.listS3Objects(under: location)
            } catch let error as HTTPLoadingError {
                throw ImagingError(.io, error.message)
            } catch {
                throw ImagingError(.io, "interrupted before the listing finished")
            }
        }.get()
    }

    /// Cancels the downloads under way (they fail as interrupted) and any started later.
    func stopDownloads() {
        prefetcher.stopPrefetching()
        let tasks = downloads.withLock { downloads in
            downloads.stopped = true
            return Array(downloads.tasks.values)
        }
        for task in tasks { task.cancel() }
    }

    /// What the CLI says about a pipeline failure: the imaging error underneath, the HTTP
    /// loader's message, or the failure's own description.
    static func imagingError(_ error: ImagePipelineError) -> ImagingError {
        switch error {
        case .cancelled:
            return ImagingError(.io, "interrupted before the download finished")
        case .dataLoadingFailed(let error as HTTPLoadingError):
            let kind: ImagingError.Kind = error.kind == .responseTooLarge ? .limitExceeded : .io
            return ImagingError(kind, error.message)
        default:
            return error.imagingError ?? ImagingError(.io, "\(error)")
        }
    }

    /// The file name a URL's output is named after: its path's last component, else "index".
    static func fileName(of url: String) -> String {
        let name = URL(string: url)?.lastPathComponent ?? ""
        return name.isEmpty || name == "/" ? "index" : name
    }
}
