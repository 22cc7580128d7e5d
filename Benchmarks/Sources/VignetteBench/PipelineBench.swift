import Foundation
import Vignette

/// The pipeline's own costs: a memory-cache hit through `image(for:)` and through
/// `encodedImage(for:as:)`, 100 concurrent identical requests against one (decoded images, and
/// AVIF bytes), and a disk-cache hit of a 256-px thumbnail against making it.
enum PipelineBench {
    static let usage = "pipeline --input FILE [--hits N] [--runs N]"

    static func run(_ arguments: ArraySlice<String>) async throws -> String {
        let parsed = try Arguments(arguments, known: ["input", "hits", "runs"])
        let input = try parsed.required("input")
        let hits = Int(try parsed.double("hits", default: 200_000))
        let runs = max(1, Int(try parsed.double("runs", default: 10)))
        let thumbnail = ThumbnailOptions(size: 256)
        var lines: [String] = []

        // 1. Memory-cache hit.
        let cached = ImagePipeline(configuration: .init(imageCache: ImageCache()))
        let request = ImageRequest(path: input, thumbnail: thumbnail)
        _ = try await cached.image(for: request)
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<hits { _ = try await cached.image(for: request) }
        let perHit = (clock.now - start).seconds / Double(hits)
        var line = JSONLine()
        line.add("case", "memory-cache hit, image(for:)")
        line.add("microseconds", perHit * 1e6)
        line.add("calls", hits)
        lines.append(line.text)

        // 1b. Encoded-bytes memory hit.
        let avif = OutputEncoding.fixed(.avif(HEIFOptions()))
        _ = try await cached.encodedImage(for: request, as: avif)
        let encodedStart = clock.now
        for _ in 0..<hits { _ = try await cached.encodedImage(for: request, as: avif) }
        line = JSONLine()
        line.add("case", "memory-cache hit, encodedImage(for:as:) AVIF bytes")
        line.add("microseconds", (clock.now - encodedStart).seconds / Double(hits) * 1e6)
        line.add("calls", hits)
        lines.append(line.text)

        // 1c. One AVIF request against 100 identical concurrent ones, fresh pipelines without caches.
        func bare() -> ImagePipeline {
            var configuration = ImagePipeline.Configuration(imageCache: nil)
            configuration.encodedImageCache = nil
            return ImagePipeline(configuration: configuration)
        }
        var singleAVIF = 0.0, hundredAVIF = 0.0
        for _ in 0..<runs {
            let one = bare()
            let t0 = clock.now
            _ = try await one.encodedImage(for: request, as: avif)
            singleAVIF += (clock.now - t0).seconds
            let many = bare()
            let t1 = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<100 { group.addTask { _ = try await many.encodedImage(for: request, as: avif) } }
                try await group.waitForAll()
            }
            hundredAVIF += (clock.now - t1).seconds
        }
        line = JSONLine()
        line.add("case", "100 concurrent identical AVIF requests vs 1")
        line.add("single_ms", singleAVIF / Double(runs) * 1000)
        line.add("hundred_ms", hundredAVIF / Double(runs) * 1000)
        line.add("ratio", hundredAVIF / singleAVIF)
        lines.append(line.text)

        // 2. One request against 100 identical concurrent ones, each on a fresh pipeline without caches.
        func fresh() -> ImagePipeline { ImagePipeline(configuration: .init(imageCache: nil)) }
        var single = 0.0, hundred = 0.0
        for _ in 0..<runs {
            let one = fresh()
            let t0 = clock.now
            _ = try await one.image(for: request)
            single += (clock.now - t0).seconds
            let many = fresh()
            let t1 = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<100 { group.addTask { _ = try await many.image(for: request) } }
                try await group.waitForAll()
            }
            hundred += (clock.now - t1).seconds
        }
        line = JSONLine()
        line.add("case", "100 concurrent identical requests vs 1")
        line.add("single_ms", single / Double(runs) * 1000)
        line.add("hundred_ms", hundred / Double(runs) * 1000)
        line.add("ratio", hundred / single)
        lines.append(line.text)

        // 3. A disk-cache hit of the processed thumbnail against making it from the original.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-bench-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let dataCache = try DataCache(path: folder)
        let writer = ImagePipeline(configuration: .init(imageCache: nil, dataCache: dataCache))
        _ = try await writer.image(for: request)
        await writer.flushDiskCache()
        let reader = ImagePipeline(configuration: .init(imageCache: nil, dataCache: dataCache))
        let maker = ImagePipeline(configuration: .init(imageCache: nil, dataCache: nil))
        var hit = 0.0, make = 0.0
        for _ in 0..<runs {
            let t0 = clock.now
            let response = try await reader.response(for: request)
            hit += (clock.now - t0).seconds
            guard response.cacheType == .disk else { throw UsageError("expected a disk-cache hit") }
            let t1 = clock.now
            _ = try await maker.image(for: request)
            make += (clock.now - t1).seconds
        }
        line = JSONLine()
        line.add("case", "256-px thumbnail: disk-cache hit vs made from the original")
        line.add("disk_hit_ms", hit / Double(runs) * 1000)
        line.add("made_ms", make / Double(runs) * 1000)
        line.add("ratio", make / hit)
        lines.append(line.text)
        return lines.joined(separator: "\n")
    }
}
