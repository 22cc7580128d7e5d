#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Tracing

/// Where a piece of the pipeline's work records its spans: the tracer, and the context (the
/// request's span) its spans are children of.
///
/// The context is captured when a request enters the pipeline and handed along explicitly, to the
/// graph's nodes and from them to the jobs on the pipeline's own threads, where no task-local
/// value reaches. Everywhere it is optional: nil when the pipeline has no tracer, so an untraced
/// request builds no span, no attribute and no context.
struct PipelineTrace: Sendable {
    let tracer: any Tracer
    let context: ServiceContext

    /// A span `name` under this trace's context, started now.
    func start(_ name: String) -> any Span {
        tracer.startSpan(name, context: context)
    }

    /// The span `name` under this trace's context, already ended, with `attributes`: for what
    /// takes no time worth measuring (a memory-cache lookup).
    func mark(_ name: String, _ attributes: (inout SpanAttributes) -> Void) {
        let span = start(name)
        span.updateAttributes(attributes)
        span.end()
    }
}

extension Span {
    /// Marks the span failed with `error`; a cancellation is not a failure, only noted.
    func record(_ error: any Error) {
        var cancelled = error is CancellationError
        if case .cancelled? = error as? ImagePipelineError { cancelled = true }
        if cancelled {
            attributes["vignette.cancelled"] = true
        } else {
            recordError(error)
            setStatus(SpanStatus(code: .error))
        }
    }

    /// A cache lookup's outcome, and what the cache holds (`result`, `original`, `processed`, `image`).
    func setLookup(hit: Bool, content: String) {
        updateAttributes { attributes in
            attributes["vignette.cache.hit"] = hit
            attributes["vignette.cache.content"] = content
        }
    }

    /// A shared-cache lookup's outcome (`setLookup`), and the cache's name (`redis`).
    func setSharedLookup(hit: Bool, content: String, layer: String) {
        setLookup(hit: hit, content: content)
        attributes["vignette.cache.layer"] = layer
    }

    /// A fetch's attributes: the bytes delivered and, from an HTTP source, the response status.
    func setFetched(_ loaded: LoadedData) {
        updateAttributes { attributes in
            attributes["vignette.fetch.bytes"] = loaded.data.count
            if let status = loaded.statusCode { attributes["http.response.status_code"] = status }
        }
    }

    /// A decode's attributes: the source (its format and stored size, when known, and its bytes),
    /// the size it was decoded to, and how (`route`; `shrink` is the loader's reduction, 1 for a
    /// full-size decode).
    func setDecoded(source: ImageInfo?, bytes: Int, image: Image, route: ThumbnailRoute?) {
        updateAttributes { attributes in
            if let source {
                attributes["vignette.decode.format"] = source.format.rawValue
                attributes["vignette.source.width"] = source.width
                attributes["vignette.source.height"] = source.height
            }
            attributes["vignette.source.bytes"] = bytes
            attributes["vignette.decoded.width"] = image.width
            attributes["vignette.decoded.height"] = image.height
            var shrink = 1.0
            if case .shrinkOnLoad(let scale) = route, scale > 0 { shrink = 1 / scale }
            attributes["vignette.decode.shrink"] = shrink
            attributes["vignette.decode.route"] = route?.description ?? "full decode"
        }
    }

    /// An encode's attributes: format, quality (lossy formats only) and the result's bytes and size.
    func setEncoded(_ encoded: EncodedImage, quality: Int?) {
        updateAttributes { attributes in
            attributes["vignette.encode.format"] = encoded.format.rawValue
            if let quality { attributes["vignette.encode.quality"] = quality }
            attributes["vignette.encode.bytes"] = encoded.data.count
            attributes["vignette.encoded.width"] = encoded.width
            attributes["vignette.encoded.height"] = encoded.height
        }
    }
}

/// The spans of one job on a pipeline stage: `vignette.queue_wait` from when it is queued until
/// it starts, then the job's own span while it runs.
struct JobSpans: Sendable {
    let trace: PipelineTrace
    let queue: any Span
    let name: String

    /// Starts the queue wait on `stage` now; nil without a trace or a span name.
    init?(_ trace: PipelineTrace?, stage: String, name: String?) {
        guard let trace, let name else { return nil }
        self.trace = trace
        self.name = name
        queue = trace.start("vignette.queue_wait")
        queue.attributes["vignette.stage"] = stage
    }

    /// The job was cancelled before it started.
    func cancelledBeforeStart() {
        queue.attributes["vignette.cancelled"] = true
        queue.end()
    }

    /// Ends the wait and runs `job` inside the job's span, which records a failure.
    static func run<Output>(_ spans: JobSpans?, _ job: ((any Span)?) throws -> Output) rethrows -> Output {
        guard let spans else { return try job(nil) }
        spans.queue.end()
        let span = spans.trace.start(spans.name)
        defer { span.end() }
        do {
            return try job(span)
        } catch {
            span.record(error)
            throw error
        }
    }

    /// `run(_:_:)` for an asynchronous job (the loading stage).
    static func run<Output>(_ spans: JobSpans?, _ job: ((any Span)?) async throws -> Output) async rethrows -> Output {
        guard let spans else { return try await job(nil) }
        spans.queue.end()
        let span = spans.trace.start(spans.name)
        defer { span.end() }
        do {
            return try await job(span)
        } catch {
            span.record(error)
            throw error
        }
    }
}
