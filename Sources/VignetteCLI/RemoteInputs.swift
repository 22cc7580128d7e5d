#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette
import VignetteHTTP
import VignetteSupport

/// http(s), s3 and gs inputs, downloaded through the run's one `ImagePipeline` (its data loader an
/// `HTTPDataLoader`, see `ImagePipeline.command`): equal URLs in flight share one download, and the
/// bytes stay in the pipeline's disk cache (the `--cache` folder when given, else a temporary
/// folder removed at the end), so a URL given again is not fetched again. An `ImagePrefetcher`
/// fetches ahead of the jobs.
final class RemoteInputs: Sendable {
    let pipeline: ImagePipeline
    /// The run's download folder when there is no `--cache`; removed by `finish()`.
    private let temporaryFolder: String?
    /// Fetches the URLs ahead of the jobs into the run's disk cache, so that downloads overlap with
    /// thumbnailing however few jobs there are.
    private let prefetcher: ImagePrefetcher
    /// Downloads under way, so that Ctrl-C can stop them rather than wait for slow servers.
    private let downloads = Locked<(stopped: Bool, next: Int, tasks: [Int: Task<Data, any Error>])>((false, 0, [:]))

    /// Whether `input` is read over the network: an http(s), s3 or gs URL.
    static func isURL(_ input: String) -> Bool {
        let lowered = input.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || S3Location.hasScheme(input)
    }

    /// How many downloads the prefetcher has going at once.
    static let prefetchConcurrency = 4

    /// How many inputs ahead of the one starting are fetched: enough to keep the network busy,
    /// few enough that the disk cache never evicts bytes a job has yet to read.
    static let lookahead = 8

    /// A run's downloads through `pipeline`, whose disk cache is `temporaryFolder` when given.
    init(pipeline: ImagePipeline, temporaryFolder: String?) {
        self.pipeline = pipeline
        self.temporaryFolder = temporaryFolder
        prefetcher = ImagePrefetcher(pipeline: pipeline, destination: .diskCache, maxConcurrentRequestCount: Self.prefetchConcurrency)
    }

    /// A new folder for a run's downloads when it keeps no `--cache`.
    static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("vignette-downloads-\(UUID().uuidString)").path
    }

    /// Input `position` of `inputs` (in processing order) is starting: fetches the URLs among the
    /// next `lookahead` inputs, `prefetchConcurrency` at a time at low priority (those fetched or
    /// under way are skipped). A job asking for one shares its download or finds it on disk.
    func prefetch(after position: Int, of inputs: [String]) {
        let upcoming = inputs.dropFirst(position + 1).prefix(RemoteInputs.lookahead)
        prefetcher.startPrefetching(with: upcoming.filter(RemoteInputs.isURL).compactMap { URL(string: $0) })
    }

    /// Stops fetching ahead, writes what the disk cache holds for later runs, and removes the
    /// run's temporary download folder.
    func finish() async {
        prefetcher.stopPrefetching()
        await pipeline.flushDiskCache()
        if let temporaryFolder { try? FileManager.default.removeItem(atPath: temporaryFolder) }
    }

    /// The bytes at `url`. Failures are `ImagePipelineError`s (`Console.reason(for:)` names the
    /// HTTP status, the limit or the network problem).
    func data(at url: String) async throws -> Data {
        guard let parsed = URL(string: url), parsed.host != nil else { throw ImagingError(.invalidArgument, "not a valid URL") }
        let pipeline = pipeline
        let task = Task { try await pipeline.data(for: ImageRequest(url: parsed)) }
        let id = downloads.withLock { downloads -> Int? in
            guard !downloads.stopped else { return nil }
            downloads.next += 1
            downloads.tasks[downloads.next] = task
            return downloads.next
        }
        guard let id else {
            task.cancel()
            throw ImagePipelineError.cancelled
        }
        defer { _ = downloads.withLock { $0.tasks.removeValue(forKey: id) } }
        return try await task.value
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

    /// The file name a URL's output is named after: its path's last component, else "index".
    static func fileName(of url: String) -> String {
        let name = URL(string: url)?.lastPathComponent ?? ""
        return name.isEmpty || name == "/" ? "index" : name
    }
}
