#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

/// Loads images ahead of need — the rows below a scrolled list, the next page of a feed — so that
/// they come from a cache when asked for.
///
/// Requests run through the pipeline at `priority` (low by default), at most
/// `maxConcurrentRequestCount` at a time; the rest wait in the prefetcher, in the order given, so
/// prefetching never fills the pipeline's queues ahead of normal requests. Equal requests are
/// prefetched once; requests whose result is already cached are skipped. Everything still
/// running is cancelled when the prefetcher goes away.
public final class ImagePrefetcher: Sendable {
    /// Where prefetched images end up.
    public enum Destination: Sendable {
        /// Decoded (and processed) into the memory cache.
        case memoryCache
        /// The original bytes into the disk cache, without decoding. The pipeline needs a
        /// `DataCache`, and a policy that stores original data (`.automatic` does here: the
        /// prefetcher asks for the bytes alone).
        case diskCache
    }

    /// The pipeline the requests go through.
    public let pipeline: ImagePipeline
    /// Where prefetched images end up.
    public let destination: Destination
    /// How many prefetches run at once.
    public let maxConcurrentRequestCount: Int

    private enum Key: Hashable {
        case image(ImageCacheKey)
        case data(String)
    }

    private enum Running {
        case image(ImageTask)
        case data(Task<Void, Never>)

        func cancel() {
            switch self {
            case .image(let task): task.cancel()
            case .data(let task): task.cancel()
            }
        }
    }

    private struct State {
        var waiting: [Key] = []
        var requests: [Key: ImageRequest] = [:]
        var running: [Key: (id: Int, task: Running)] = [:]
        var nextID = 0
        var isPaused = false
        var priority: ImageRequest.Priority = .low
        var didComplete: (@Sendable () -> Void)?
        var hasWork = false
    }

    private let state = Locked(State())

    /// A prefetcher into `destination` through `pipeline`, at most `maxConcurrentRequestCount` at once.
    public init(pipeline: ImagePipeline, destination: Destination = .memoryCache, maxConcurrentRequestCount: Int = 2) {
        self.pipeline = pipeline
        self.destination = destination
        self.maxConcurrentRequestCount = max(1, maxConcurrentRequestCount)
    }

    deinit {
        let running = state.withLock { state in
            defer { state.running.removeAll() }
            return state.running.values.map(\.task)
        }
        for task in running { task.cancel() }
    }

    /// While paused nothing new starts (what runs goes on); unpausing starts what waits.
    public var isPaused: Bool {
        get { state.withLock { $0.isPaused } }
        set {
            state.withLock { $0.isPaused = newValue }
            if !newValue { startWaiting() }
        }
    }

    /// The priority of prefetch requests (`.low` by default); a change moves the running ones too.
    public var priority: ImageRequest.Priority {
        get { state.withLock { $0.priority } }
        set {
            let running = state.withLock { state -> [Running] in
                state.priority = newValue
                return state.running.values.map(\.task)
            }
            for case .image(let task) in running { task.setPriority(newValue) }
        }
    }

    /// Called (on some task) each time everything started has finished or been stopped.
    public var didComplete: (@Sendable () -> Void)? {
        get { state.withLock { $0.didComplete } }
        set { state.withLock { $0.didComplete = newValue } }
    }

    /// How many requests run now, and how many wait.
    public var counts: (running: Int, waiting: Int) { state.withLock { ($0.running.count, $0.waiting.count) } }

    /// Starts prefetching `requests`, in this order after those already waiting; equal requests
    /// and cached results are skipped.
    public func startPrefetching(with requests: [ImageRequest]) {
        let fresh = requests.filter { !isCached($0) }
        state.withLock { state in
            for request in fresh {
                let key = key(for: request)
                guard state.requests[key] == nil else { continue }
                state.requests[key] = request
                state.waiting.append(key)
                state.hasWork = true
            }
        }
        startWaiting()
    }

    /// Starts prefetching the images at `urls`.
    public func startPrefetching(with urls: [URL]) {
        startPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Stops prefetching `requests`: waiting ones are dropped, running ones cancelled.
    public func stopPrefetching(with requests: [ImageRequest]) {
        let keys = Set(requests.map(key(for:)))
        let cancelled = state.withLock { state -> [Running] in
            state.waiting.removeAll { keys.contains($0) }
            for key in keys { state.requests[key] = nil }
            return keys.compactMap { state.running.removeValue(forKey: $0)?.task }
        }
        for task in cancelled { task.cancel() }
        startWaiting()
    }

    /// Stops prefetching the images at `urls`.
    public func stopPrefetching(with urls: [URL]) {
        stopPrefetching(with: urls.map { ImageRequest(url: $0) })
    }

    /// Stops everything.
    public func stopPrefetching() {
        let cancelled = state.withLock { state -> [Running] in
            defer {
                state.waiting.removeAll()
                state.requests.removeAll()
                state.running.removeAll()
            }
            return state.running.values.map(\.task)
        }
        for task in cancelled { task.cancel() }
        startWaiting()
    }

    // MARK: - Running

    private func key(for request: ImageRequest) -> Key {
        switch destination {
        case .memoryCache: .image(ImageCacheKey(request: request))
        case .diskCache: .data(DiskKeys.original(request))
        }
    }

    private func isCached(_ request: ImageRequest) -> Bool {
        switch destination {
        case .memoryCache:
            return pipeline.cachedImage(for: request).map { !$0.isPreview } ?? false
        case .diskCache:
            return pipeline.configuration.dataCache?.containsData(for: DiskKeys.original(request)) ?? false
        }
    }

    /// Starts waiting requests up to the limit, or reports completion when nothing is left.
    private func startWaiting() {
        let completion = state.withLock { state -> (@Sendable () -> Void)? in
            while !state.isPaused, state.running.count < maxConcurrentRequestCount, !state.waiting.isEmpty {
                let key = state.waiting.removeFirst()
                guard var request = state.requests[key] else { continue }
                request.priority = state.priority
                state.nextID += 1
                state.running[key] = (state.nextID, start(request, key: key, id: state.nextID))
            }
            guard state.hasWork, state.running.isEmpty, state.waiting.isEmpty else { return nil }
            state.hasWork = false
            return state.didComplete
        }
        completion?()
    }

    /// Starts one request; called with the state locked (the pipeline never calls back into the
    /// prefetcher synchronously, and the tasks report back from another task).
    private func start(_ request: ImageRequest, key: Key, id: Int) -> Running {
        switch destination {
        case .memoryCache:
            let task = pipeline.imageTask(with: request)
            Task { [weak self] in
                _ = try? await task.response
                self?.finished(key, id: id)
            }
            return .image(task)
        case .diskCache:
            var bytesOnly = request
            bytesOnly.processors = []
            bytesOnly.thumbnail = nil
            let pipeline = pipeline
            return .data(Task { [weak self] in
                _ = try? await pipeline.data(for: bytesOnly)
                self?.finished(key, id: id)
            })
        }
    }

    private func finished(_ key: Key, id: Int) {
        state.withLock { state in
            guard state.running[key]?.id == id else { return }
            state.running[key] = nil
            if !state.waiting.contains(key) { state.requests[key] = nil }
        }
        startWaiting()
    }
}
