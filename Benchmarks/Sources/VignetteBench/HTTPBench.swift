import Foundation
import LoopbackHTTPServer
import Vignette
import VignetteHTTP

/// Loading over HTTP from a server on 127.0.0.1 in this process:
/// 1. a progressive JPEG of the input dribbled at a fixed rate: time to the first preview and to the
///    final 256-px thumbnail with previews on, to the final one with previews off, and curl's time
///    to the last byte of the same URL;
/// 2. 100 different small JPEGs: the pipeline's `data(for:)` for all of them at once (with the
///    loader's default rate limit, 80 a second after a burst of 25, and without one) vs one curl
///    process fetching them over one kept-alive connection.
enum HTTPBench {
    static let usage = "http --input FILE --small FILE [--runs N]"

    static func run(_ arguments: ArraySlice<String>) async throws -> String {
        let parsed = try Arguments(arguments, known: ["input", "small", "runs"])
        let runs = max(1, Int(try parsed.double("runs", default: 5)))
        let big = try ImageDecoder().decode(Data(contentsOf: URL(fileURLWithPath: try parsed.required("input"))))
        let progressive = try ImageEncoder.encode(big, as: .jpeg(JPEGOptions(quality: 85, progressive: true)))
        let small = Array(try Data(contentsOf: URL(fileURLWithPath: try parsed.required("small"))))
        let server = try await LoopbackHTTPServer.start()
        defer { Task { await server.stop() } }
        // 64 KiB every 10 ms: about 6.5 MB/s, a fast mobile link.
        server.setRoute("/progressive.jpg", Route(body: Array(progressive), delivery: .dribble(chunkSize: 65_536, interval: .milliseconds(10))))
        for index in 0..<100 { server.setRoute("/small/\(index).jpg", Route(body: small)) }
        let url = URL(string: server.url("/progressive.jpg"))!
        var lines: [String] = []

        var firstPreview = 0.0, finalWith = 0.0, finalWithout = 0.0, curlLast = 0.0, previews = 0
        for _ in 0..<runs {
            let (first, final, count) = try await thumbnail(url, previews: true)
            firstPreview += first ?? .nan
            finalWith += final
            previews += count
            finalWithout += try await thumbnail(url, previews: false).final
            curlLast += try curl([url.absoluteString])
        }
        var line = JSONLine()
        line.add("case", "progressive JPEG over HTTP at 6.5 MB/s, 256-px thumbnail")
        line.add("bytes", progressive.count)
        line.add("first_preview_ms", firstPreview / Double(runs) * 1000)
        line.add("final_with_previews_ms", finalWith / Double(runs) * 1000)
        line.add("final_without_previews_ms", finalWithout / Double(runs) * 1000)
        line.add("curl_last_byte_ms", curlLast / Double(runs) * 1000)
        line.add("previews_per_load", Double(previews) / Double(runs))
        lines.append(line.text)

        let urls = (0..<100).map { server.url("/small/\($0).jpg") }
        var paced = 0.0, unpaced = 0.0, curlTime = 0.0
        for _ in 0..<runs {
            paced += try await fetchAll(urls, loader: HTTPDataLoader(), expected: small.count)
            let unlimited = HTTPDataLoader(configuration: .init(rateLimiter: nil))
            unpaced += try await fetchAll(urls, loader: unlimited, expected: small.count)
            curlTime += try curl(urls)
        }
        line = JSONLine()
        line.add("case", "100 small JPEGs over HTTP")
        line.add("bytes_each", small.count)
        line.add("pipeline_default_rate_limit_ms", paced / Double(runs) * 1000)
        line.add("pipeline_no_rate_limit_ms", unpaced / Double(runs) * 1000)
        line.add("curl_ms", curlTime / Double(runs) * 1000)
        lines.append(line.text)
        return lines.joined(separator: "\n")
    }

    /// Seconds for a fresh pipeline over `loader` to fetch every URL at once.
    static func fetchAll(_ urls: [String], loader: HTTPDataLoader, expected: Int) async throws -> Double {
        let pipeline = ImagePipeline(configuration: .init(dataLoader: loader, imageCache: nil))
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Int.self) { group in
            for address in urls {
                group.addTask { try await pipeline.data(for: ImageRequest(url: URL(string: address)!)).count }
            }
            for try await count in group where count != expected { throw UsageError("short body") }
        }
        return (clock.now - start).seconds
    }

    /// Seconds to the first preview (nil when none came), to the final image, and the preview count.
    static func thumbnail(_ url: URL, previews: Bool) async throws -> (first: Double?, final: Double, count: Int) {
        var configuration = ImagePipeline.Configuration(dataLoader: HTTPDataLoader(), imageCache: nil)
        configuration.isProgressiveDecodingEnabled = previews
        configuration.progressiveDecodingInterval = .milliseconds(50)
        let pipeline = ImagePipeline(configuration: configuration)
        let clock = ContinuousClock()
        let start = clock.now
        var first: Double?
        var count = 0
        for await event in pipeline.imageTask(with: ImageRequest(url: url, thumbnail: ThumbnailOptions(size: 256))).events {
            switch event {
            case .preview:
                count += 1
                if first == nil { first = (clock.now - start).seconds }
            case .finished(let result):
                _ = try result.get()
            case .progress:
                break
            }
        }
        return (first, (clock.now - start).seconds, count)
    }

    /// Wall seconds of one `curl` process fetching `urls` (to /dev/null).
    static func curl(_ urls: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "--fail"] + urls.flatMap { [$0, "-o", "/dev/null"] }
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw UsageError("curl exited with \(process.terminationStatus)") }
        return (ContinuousClock.now - start).seconds
    }
}
