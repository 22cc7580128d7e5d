import Hummingbird
import Logging
import Vignette

extension ThumbnailServer {
    /// `GET /placeholder/thumbhash|blurhash/<imgproxy URL>`: `{"thumbhash": "…"}` (or `blurhash`)
    /// for the URL's source, made from a 100-px thumbnail; the URL's signature and source rules
    /// apply as for images, its processing options are ignored. A client that goes away
    /// (`disconnect`, in the server's own application) stops the work.
    func placeholder(kind: PlaceholderKind?, path: String, logger: Logger, disconnect: ClientDisconnect? = nil) async -> Response {
        let started = ContinuousClock.now
        metrics.inFlight(1)
        defer { metrics.inFlight(-1) }
        var response: Response
        do {
            guard let kind else { throw ServerFailure.badRequest("the placeholder kind must be thumbhash or blurhash") }
            let order = try urls.order(for: path)
            let resolved = try await sources.resolve(order.source)
            let request = try resolved.request(ImageRecipe(width: 100, height: 100), limits: configuration.decodingLimits)
            let (pipeline, timeout) = (pipeline, configuration.requestTimeout)
            let text = try await ThumbnailServer.within(timeout, unless: disconnect) { [admission] in
                try await admission.run { try await pipeline.image(for: request).placeholder(kind) }
            }
            let body = "{\"\(kind.rawValue)\":\"\(text)\"}"
            response = Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "public, max-age=\(configuration.cacheMaxAge)",
                          .contentLength: String(body.utf8.count)],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        } catch {
            response = failureResponse(for: error, path: path, logger: logger)
        }
        metrics.responded(status: response.status.code, after: ContinuousClock.now - started)
        return response
    }
}
