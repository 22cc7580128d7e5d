import Tracing
import Vapor
import Vignette
import VignetteServer

extension Application {
    /// Vignette in this application: `app.vignette.configure(…)` once at start, then
    /// `req.vignette.thumbnail(path:recipe:)` in handlers.
    public var vignette: VignetteVaporApplication { VignetteVaporApplication(application: self) }
}

/// The pipeline and the responder of an application (`app.vignette`), kept in its storage.
///
/// ```swift
/// try app.vignette.configure(root: "/srv/images")
/// app.get("thumbs", ":name") { req in
///     await req.vignette.thumbnail(path: req.parameters.get("name") ?? "", recipe: ImageRecipe(width: 200, height: 200))
/// }
/// ```
public struct VignetteVaporApplication: Sendable {
    /// The application configured.
    public let application: Application

    private struct Key: StorageKey {
        typealias Value = ImageResponder
    }

    /// Makes the application's pipeline and responder (`ImageResponder`): images are made by
    /// `pipeline` (a pipeline with the default configuration when nil), files are read under
    /// `root` (a path that leaves it is 403; nil: paths are read as given), images are cached by
    /// clients for `maxAge` seconds and failures for `failureMaxAge`. At the application's
    /// shutdown the pipeline's disk cache writes what it still has staged (`flushDiskCache()`).
    /// - Throws: `ImagingError` when `root` is not a folder.
    public func configure(
        pipeline: ImagePipeline? = nil, root: String? = nil, maxAge: Int = ImageAnswer.defaultMaxAge,
        failureMaxAge: Int = ImageAnswer.defaultFailureMaxAge
    ) throws(ImagingError) {
        let pipeline = pipeline ?? ImagePipeline(configuration: ImagePipeline.Configuration())
        let responder =
            if let root {
                try ImageResponder(pipeline: pipeline, root: root, maxAge: maxAge, failureMaxAge: failureMaxAge)
            } else {
                ImageResponder(pipeline: pipeline, maxAge: maxAge, failureMaxAge: failureMaxAge)
            }
        application.storage[Key.self] = responder
        application.lifecycle.use(DiskCacheFlush(pipeline: pipeline))
    }

    /// What answers images (`ImageResponder`); until `configure(…)` is called, none.
    public var responder: ImageResponder? { application.storage[Key.self] }

    /// The pipeline images are made by; until `configure(…)` is called, none.
    public var pipeline: ImagePipeline? { responder?.pipeline }

}

/// Writes a pipeline's staged disk-cache entries when the application shuts down.
struct DiskCacheFlush: LifecycleHandler {
    let pipeline: ImagePipeline
    func shutdownAsync(_ application: Application) async { await pipeline.flushDiskCache() }
}

extension Request {
    /// Vignette's one-image answers to this request: `req.vignette.thumbnail(path:recipe:)`.
    public var vignette: VignetteVaporRequest { VignetteVaporRequest(request: self) }
}

/// One image as the answer to a Vapor request, through the application's responder
/// (`app.vignette.configure(…)`): the format from the request's `Accept`, a 304 for its
/// `If-None-Match`, and failures with the status they deserve. `ImageResponder` does the work.
public struct VignetteVaporRequest: Sendable {
    /// The request answered: its `Accept` and `If-None-Match` are read, its logger gets failures.
    public let request: Request

    /// The file at `path` (under the configured root, if any) made by `recipe`, as a response
    /// (`ImageResponder.respond(path:…)`): 200 with the image, 304, or the failure's status with
    /// a one-line reason that names no path. Before `configure(…)` it is 500.
    public func thumbnail(path: String, recipe: ImageRecipe) async -> Response {
        guard let responder = request.application.vignette.responder else { return unconfigured() }
        return await ServiceContext.withValue(request.serviceContext) {
            Response(await responder.respond(
                path: path, recipe: recipe, accept: request.headers.first(name: .accept),
                ifNoneMatch: request.headers.first(name: .ifNoneMatch), logger: request.logger))
        }
    }

    /// `source` (a file, a URL the pipeline's loader reads, or data) made by `recipe`, as a
    /// response (`ImageResponder.respond(to:…)`). Before `configure(…)` it is 500.
    public func thumbnail(source: ImageRequest.Source, recipe: ImageRecipe) async -> Response {
        guard let responder = request.application.vignette.responder else { return unconfigured() }
        return await ServiceContext.withValue(request.serviceContext) {
            Response(await responder.respond(
                to: source, recipe: recipe, accept: request.headers.first(name: .accept),
                ifNoneMatch: request.headers.first(name: .ifNoneMatch), logger: request.logger))
        }
    }

    private func unconfigured() -> Response {
        request.logger.error("app.vignette.configure(…) was not called before req.vignette.thumbnail")
        return Response(ImageAnswer(failure: .notMade, maxAge: 0))
    }
}

extension Response {
    /// `answer` (from `ImageResponder`) as a Vapor response: its status, headers and body. Its
    /// `Content-Length` is kept when the body is empty (an answer to HEAD has the GET's).
    public convenience init(_ answer: ImageAnswer) {
        self.init(
            status: HTTPResponseStatus(statusCode: answer.status), headers: HTTPHeaders(answer.headers.map { ($0.name, $0.value) }),
            body: answer.body.isEmpty ? .empty : .init(data: answer.body))
        // Vapor sets Content-Length from the body; a HEAD answer's is the GET's.
        if answer.body.isEmpty, let length = answer[header: "Content-Length"] { headers.replaceOrAdd(name: .contentLength, value: length) }
    }
}
