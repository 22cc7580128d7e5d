import Hummingbird
import Logging
import Vignette
import VignetteServer

extension Request {
    /// Vignette's one-image answers to this request, for a handler of your own:
    /// `request.vignette.thumbnail(path:recipe:pipeline:)`.
    public var vignette: VignetteHummingbirdRequest { VignetteHummingbirdRequest(request: self) }
}

/// One image as the answer to a Hummingbird request: the format from its `Accept`, a 304 for its
/// `If-None-Match`, and failures with the status they deserve. `ImageResponder` does the work.
///
/// ```swift
/// router.get("thumbs/:name") { request, context in
///     await request.vignette.thumbnail(
///         path: "/srv/images/" + (context.parameters.get("name") ?? ""), recipe: ImageRecipe(width: 200, height: 200),
///         pipeline: pipeline, logger: context.logger)
/// }
/// ```
public struct VignetteHummingbirdRequest: Sendable {
    /// The request answered: its `Accept` and `If-None-Match` are read.
    public let request: Request

    /// The file at `path` made by `recipe` through `pipeline` (`ImageResponder.respond(path:…)`),
    /// as a response: 200 with the image, 304, or the failure's status with a one-line reason that
    /// names no path. `path` is read as given; to keep clients' paths within a folder, answer
    /// through a responder made with a root (`thumbnail(path:recipe:responder:logger:)`).
    public func thumbnail(path: String, recipe: ImageRecipe, pipeline: ImagePipeline, logger: Logger? = nil) async -> Response {
        await thumbnail(path: path, recipe: recipe, responder: ImageResponder(pipeline: pipeline), logger: logger)
    }

    /// The file at `path` (under the responder's root, if it has one) made by `recipe`, as a
    /// response (`ImageResponder.respond(path:…)`).
    public func thumbnail(path: String, recipe: ImageRecipe, responder: ImageResponder, logger: Logger? = nil) async -> Response {
        Response(await responder.respond(
            path: path, recipe: recipe, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch], logger: logger))
    }

    /// `source` (a file, a URL the pipeline's loader reads, or data) made by `recipe`, as a
    /// response (`ImageResponder.respond(to:…)`).
    public func thumbnail(source: ImageRequest.Source, recipe: ImageRecipe, responder: ImageResponder, logger: Logger? = nil) async -> Response {
        Response(await responder.respond(
            to: source, recipe: recipe, accept: request.headers[.accept], ifNoneMatch: request.headers[.ifNoneMatch], logger: logger))
    }
}

extension Response {
    /// `answer` (from `ImageResponder`) as a Hummingbird response: its status, headers and body.
    public init(_ answer: ImageAnswer) {
        typealias Field = HTTPFields.Element  // HTTPTypes' HTTPField, which Hummingbird does not re-export
        var headers = HTTPFields()
        for (name, value) in answer.headers {
            if let name = Field.Name(name) { headers.append(Field(name: name, value: value)) }
        }
        self.init(
            status: HTTPResponse.Status(code: answer.status), headers: headers,
            body: answer.body.isEmpty ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
