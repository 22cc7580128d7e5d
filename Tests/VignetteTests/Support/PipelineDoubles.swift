import Foundation
import Testing
@testable import Vignette
import TestTiming
import VignetteSupport

enum Files {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func fixture(_ name: String) -> String { repository.appendingPathComponent("Fixtures/\(name)").path }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// A gate tests open when they are ready; loads wait at it (cancellably).
final class Gate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async throws {
        await withCheckedContinuation { continuation in
            let openNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if openNow { continuation.resume() }
        }
        try Task.checkCancellation()
    }
}

/// The pipeline's data-loading seam, counted: reads the real file behind `.file` sources.
final class CountingLoader: DataLoading {
    private let counts = Locked<(started: Int, cancelled: Int, byID: [String: Int])>((0, 0, [:]))
    let gate: Gate?
    private let cancellationGate = Gate()

    init(gate: Gate? = nil) { self.gate = gate }

    var started: Int { counts.withLock { $0.started } }
    var cancelled: Int { counts.withLock { $0.cancelled } }
    func loads(of id: String) -> Int { counts.withLock { $0.byID[id, default: 0] } }

    func loadData(for request: ImageRequest, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> Data {
        counts.withLock { counts in
            counts.started += 1
            counts.byID[request.effectiveImageID, default: 0] += 1
        }
        do {
            if let gate {
                try await withTaskCancellationHandler {
                    try await gate.wait()
                } onCancel: {
                    gate.open()
                }
            }
            try Task.checkCancellation()
        } catch {
            counts.withLock { $0.cancelled += 1 }
            throw error
        }
        return try await FileDataLoader().loadData(for: request, progress: progress)
    }
}

/// A processor that counts its runs (the pipeline's processing seam) and can hold its thread.
final class CountingProcessor: ImageProcessing, @unchecked Sendable {
    let identifier: String
    var hashableIdentifier: AnyHashable { AnyHashable(identifier) }
    private let runs = Locked<[String]>([])
    private let hold: DispatchSemaphore?
    private let log: RunLog?

    init(_ identifier: String, hold: DispatchSemaphore? = nil, log: RunLog? = nil) {
        self.identifier = identifier
        self.hold = hold
        self.log = log
    }

    var count: Int { runs.withLock { $0.count } }

    func process(_ image: Image) throws(ImagingError) -> Image {
        runs.withLock { $0.append(identifier) }
        log?.append(identifier)
        hold?.wait()
        return try image.blurred(sigma: 0.5)
    }
}

/// The order things ran in.
final class RunLog: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}


extension ImagePipeline {
    /// How many subscribers wait on the image node of `request` (all processors applied).
    func subscriberCount(for request: ImageRequest, processors: Int? = nil) -> Int {
        let key = GraphKey(ImageKey(request).prefix(processors ?? request.processors.count), request)
        return graph.withLock { $0.images[key]?.subscriberCount ?? 0 }
    }

    func loadNodePriority(for request: ImageRequest) -> ImageRequest.Priority? {
        graph.withLock { $0.loads[GraphKey(DiskKeys.original(request), request)]?.priority }
    }

    var inFlightCount: Int {
        graph.withLock { $0.loads.count + $0.images.count + $0.encodes.count + $0.diskImages.count + $0.tasks.count + $0.storing.count }
    }

    static func testing(loader: any DataLoading, configure: (inout Configuration) -> Void = { _ in }) -> ImagePipeline {
        var configuration = Configuration(dataLoader: loader, imageCache: ImageCache(costLimit: 256 << 20))
        configure(&configuration)
        return ImagePipeline(configuration: configuration)
    }
}
