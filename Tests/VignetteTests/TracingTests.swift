import Foundation
import InMemoryTracing
import Testing
import Tracing
@testable import Vignette
import TestTiming

/// The spans one test's pipeline recorded, by name and parent.
struct SpanTree {
    let spans: [FinishedInMemorySpan]

    init(_ tracer: InMemoryTracer) { spans = tracer.finishedSpans }

    func named(_ name: String) -> [FinishedInMemorySpan] { spans.filter { $0.operationName == name } }

    func one(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> FinishedInMemorySpan {
        let found = named(name)
        try #require(found.count == 1, "\(found.count) spans named \(name)", sourceLocation: sourceLocation)
        return found[0]
    }

    /// The names of `span`'s children, sorted.
    func children(of span: FinishedInMemorySpan) -> [String] {
        spans.filter { $0.parentSpanID == span.spanID }.map(\.operationName).sorted()
    }

    /// The spans under `span`, at any depth.
    func descendants(of span: FinishedInMemorySpan) -> [FinishedInMemorySpan] {
        let direct = spans.filter { $0.parentSpanID == span.spanID }
        return direct + direct.flatMap { descendants(of: $0) }
    }
}

extension FinishedInMemorySpan {
    func attribute(_ name: String) -> SpanAttribute? { attributes.get(name) }

    /// A string attribute's value.
    func string(_ name: String) -> String? {
        if case .string(let value)? = attribute(name) { value } else { nil }
    }
}

@Suite("Tracing: a span for each stage a request passes, under the caller's span")
struct TracingTests {
    let path = Files.fixture("baseline.jpg")
    let webp = OutputEncoding.fixed(.webp(WebPOptions(quality: 70)))

    /// A pipeline that records its spans in a tracer of its own (no process-wide bootstrap).
    func pipeline(loader: any DataLoading = CountingLoader(), configure: (inout ImagePipeline.Configuration) -> Void = { _ in })
        -> (ImagePipeline, InMemoryTracer)
    {
        let tracer = InMemoryTracer()
        let pipeline = ImagePipeline.testing(loader: loader) { configuration in
            configuration.tracer = tracer
            configure(&configuration)
        }
        return (pipeline, tracer)
    }

    /// `body` run under a span named `name` of `tracer`, as a server's request span would be.
    func under<T>(_ name: String, of tracer: InMemoryTracer, _ body: () async throws -> T) async rethrows -> T {
        let span = tracer.startSpan(name, context: .topLevel)
        defer { span.end() }
        return try await ServiceContext.withValue(span.context) { try await body() }
    }

    @Test("a processed result: the request's span under the caller's, and a child for each stage with its attributes")
    func processedTree() async throws {
        let (pipeline, tracer) = pipeline()
        let blur = CountingProcessor("blur")
        let request = ImageRequest(path: path, processors: [blur], thumbnail: ThumbnailOptions(size: 128))
        let result = try await under("GET /image", of: tracer) { try await pipeline.encodedImage(for: request, as: webp) }
        let tree = SpanTree(tracer)
        let caller = try tree.one("GET /image")
        let root = try tree.one("vignette.encoded_image")
        #expect(root.parentSpanID == caller.spanID && root.traceID == caller.traceID)
        #expect(tree.children(of: root) == [
            "vignette.cache.memory", "vignette.decode", "vignette.encode", "vignette.fetch", "vignette.process",
            "vignette.queue_wait", "vignette.queue_wait", "vignette.queue_wait", "vignette.queue_wait",
        ])
        #expect(tree.descendants(of: root).count == 9)
        #expect(try tree.one("vignette.cache.memory").attribute("vignette.cache.hit") == .bool(false))
        #expect(Set(tree.named("vignette.queue_wait").compactMap { $0.string("vignette.stage") })
            == ["loading", "decoding", "processing", "encoding"])

        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).count
        #expect(try tree.one("vignette.fetch").attribute("vignette.fetch.bytes") == .int64(Int64(bytes)))
        let decode = try tree.one("vignette.decode")
        let info = try ImageDecoder().probe(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(decode.attribute("vignette.decode.format") == .string("jpeg"))
        #expect(decode.attribute("vignette.source.width") == .int64(Int64(info.width)))
        #expect(decode.attribute("vignette.source.height") == .int64(Int64(info.height)))
        #expect(decode.attribute("vignette.source.bytes") == .int64(Int64(bytes)))
        #expect(decode.attribute("vignette.decoded.width") == .int64(128))
        // The 1/2, 1/4 or 1/8 JPEG shrink-on-load.
        guard case .double(let shrink)? = decode.attribute("vignette.decode.shrink") else {
            Issue.record("no shrink on the decode span")
            return
        }
        #expect([2.0, 4.0, 8.0].contains(shrink))
        #expect(try tree.one("vignette.process").attribute("vignette.processor") == .string("blur"))
        let encode = try tree.one("vignette.encode")
        #expect(encode.attribute("vignette.encode.format") == .string("webp"))
        #expect(encode.attribute("vignette.encode.quality") == .int64(70))
        #expect(encode.attribute("vignette.encode.bytes") == .int64(Int64(result.image.data.count)))
        #expect(tree.spans.allSatisfy { $0.status == nil && $0.errors.isEmpty })
    }

    @Test("a memory hit is the request's span and one lookup, hit; no fetch, no decode, no encode")
    func memoryHit() async throws {
        let (pipeline, tracer) = pipeline()
        let request = ImageRequest(path: path, thumbnail: ThumbnailOptions(size: 96))
        _ = try await pipeline.encodedImage(for: request, as: webp)
        tracer.clearFinishedSpans()
        let hit = try await under("hit", of: tracer) { try await pipeline.encodedImage(for: request, as: webp) }
        #expect(hit.cacheType == .memory)
        let tree = SpanTree(tracer)
        let root = try tree.one("vignette.encoded_image")
        #expect(root.parentSpanID == (try tree.one("hit")).spanID)
        #expect(tree.children(of: root) == ["vignette.cache.memory"])
        #expect(try tree.one("vignette.cache.memory").attribute("vignette.cache.hit") == .bool(true))
        #expect(tree.spans.count == 3)
    }

    @Test("a thumbnail alone: decode and encode are one libvips pass, one span with both's attributes")
    func onePass() async throws {
        let (pipeline, tracer) = pipeline()
        let request = ImageRequest(path: path, thumbnail: ThumbnailOptions(size: 128))
        let result = try await pipeline.encodedImage(for: request, as: .fixed(.jpeg(JPEGOptions(quality: 60))))
        let tree = SpanTree(tracer)
        let root = try tree.one("vignette.encoded_image")
        #expect(root.parentSpanID == nil)
        let pass = try tree.one("vignette.decode_encode")
        #expect(pass.parentSpanID == root.spanID)
        #expect(pass.attribute("vignette.decode.format") == .string("jpeg"))
        #expect(pass.attribute("vignette.encode.format") == .string("jpeg"))
        #expect(pass.attribute("vignette.encode.quality") == .int64(60))
        #expect(pass.attribute("vignette.encode.bytes") == .int64(Int64(result.image.data.count)))
        #expect(tree.named("vignette.decode").isEmpty && tree.named("vignette.encode").isEmpty)
    }

    @Test("disk lookups: a miss, then, from a fresh pipeline on the same folder, a hit and nothing else")
    func diskHit() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let request = ImageRequest(path: path, thumbnail: ThumbnailOptions(size: 64))
        let onDisk = { (configuration: inout ImagePipeline.Configuration) in
            configuration.dataCache = try? DataCache(path: folder)
            configuration.dataCachePolicy = .storeEncodedImages
        }
        let (first, firstTracer) = pipeline(configure: onDisk)
        _ = try await first.encodedImage(for: request, as: webp)
        await first.flushDiskCache()
        let lookups = SpanTree(firstTracer).named("vignette.cache.disk")
        #expect(Set(lookups.compactMap { $0.string("vignette.cache.content") }) == ["result", "original"])
        #expect(lookups.allSatisfy { $0.attribute("vignette.cache.hit") == .bool(false) })

        let (second, tracer) = pipeline(configure: onDisk)
        let hit = try await second.encodedImage(for: request, as: webp)
        #expect(hit.cacheType == .disk)
        let tree = SpanTree(tracer)
        let root = try tree.one("vignette.encoded_image")
        #expect(tree.children(of: root) == ["vignette.cache.disk", "vignette.cache.memory", "vignette.queue_wait"])
        #expect(try tree.one("vignette.cache.disk").attribute("vignette.cache.hit") == .bool(true))
    }

    @Test("two equal requests at once: one does the work; the other's span is a coalesced span linked to the first's request")
    func coalescedPair() async throws {
        let gate = Gate()
        let (pipeline, tracer) = pipeline(loader: CountingLoader(gate: gate))
        let request = ImageRequest(path: path, thumbnail: ThumbnailOptions(size: 128))
        async let a = under("A", of: tracer) { try await pipeline.encodedImage(for: request, as: webp) }
        async let b = under("B", of: tracer) { try await pipeline.encodedImage(for: request, as: webp) }
        #expect(await eventually { tracer.activeSpans.contains { $0.operationName == "vignette.coalesced" } })
        gate.open()
        let (first, second) = try await (a, b)
        #expect(first.image == second.image)

        let tree = SpanTree(tracer)
        let requests = tree.named("vignette.encoded_image")
        try #require(requests.count == 2)
        let pass = try tree.one("vignette.decode_encode")
        let worker = try #require(requests.first { $0.spanID == pass.parentSpanID })
        let joiner = try #require(requests.first { $0.spanID != worker.spanID })
        let joined = try tree.one("vignette.coalesced")
        #expect(joined.parentSpanID == joiner.spanID)
        #expect(joined.attribute("vignette.coalesced.work") == .string("encode"))
        #expect(joined.links.count == 1)
        #expect(joined.links.first?.context.inMemorySpanContext?.spanID == worker.spanID)
        #expect(tree.children(of: joiner) == ["vignette.cache.memory", "vignette.coalesced"])
        #expect(tree.named("vignette.fetch").count == 1)
    }

    @Test("a failed decode: error status on the decode's span and on the request's")
    func failedDecode() async throws {
        let (pipeline, tracer) = pipeline(loader: FileDataLoader())
        let request = ImageRequest(source: .data(id: "not-an-image") { Data("no image here".utf8) }, processors: [CountingProcessor("p")])
        await #expect(throws: ImagePipelineError.self) { try await pipeline.encodedImage(for: request, as: webp) }
        let tree = SpanTree(tracer)
        let decode = try tree.one("vignette.decode")
        #expect(decode.status?.code == .error && decode.errors.count == 1)
        #expect(try tree.one("vignette.encoded_image").status?.code == .error)
        #expect(tree.named("vignette.process").isEmpty && tree.named("vignette.encode").isEmpty)
    }

    @Test("image(for:): the decoded image's request span, its processor, and a memory hit next time")
    func imageRequests() async throws {
        let (pipeline, tracer) = pipeline()
        let request = ImageRequest(path: path, processors: [CountingProcessor("p")], thumbnail: ThumbnailOptions(size: 64))
        _ = try await under("caller", of: tracer) { try await pipeline.image(for: request) }
        let tree = SpanTree(tracer)
        let root = try tree.one("vignette.image")
        #expect(root.parentSpanID == (try tree.one("caller")).spanID)
        #expect(tree.children(of: root).filter { $0 != "vignette.queue_wait" }
            == ["vignette.cache.memory", "vignette.decode", "vignette.fetch", "vignette.process"])
        tracer.clearFinishedSpans()
        _ = try await pipeline.image(for: request)
        let hit = SpanTree(tracer)
        #expect(hit.spans.map(\.operationName).sorted() == ["vignette.cache.memory", "vignette.image"])
        #expect(try hit.one("vignette.cache.memory").attribute("vignette.cache.hit") == .bool(true))
    }

    @Test("with the no-op tracer (nothing bootstrapped) the pipeline keeps no tracer: untraced requests make nothing")
    func noOpTracer() async throws {
        let pipeline = ImagePipeline.testing(loader: CountingLoader()) { $0.tracer = NoOpTracer() }
        #expect(pipeline.tracer == nil)
        #expect(ImagePipeline.testing(loader: CountingLoader()).tracer == nil)
        _ = try await pipeline.encodedImage(for: ImageRequest(path: path, thumbnail: ThumbnailOptions(size: 32)), as: webp)
    }
}
