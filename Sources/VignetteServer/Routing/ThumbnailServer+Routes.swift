#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette

extension ThumbnailServer {
    /// Answers `request`, whichever door it came through: every rule of the configuration is
    /// applied here, so `vignette serve`, routes added to a Hummingbird router and a Vapor mount
    /// answer alike. `mount` is where the door put the server in its application ("" or "/img");
    /// under it, `pathPrefix`; under that, `/health` (and `healthCheckPath`), `/ready`,
    /// `/metrics` (unless `metricsPort` serves it elsewhere), `/placeholder/<kind>/<imgproxy URL>`,
    /// `/info/<imgproxy URL>` and image URLs. Image, `/info` and `/placeholder` requests need the
    /// `authorizationSecret` and get the CORS headers of `allowedOrigin`; `OPTIONS` is a preflight
    /// when an origin is set. A path outside the prefix is 404; a method other than GET, HEAD and
    /// `OPTIONS` is 405. HEAD is answered as GET without the body (the GET's `Content-Length`
    /// kept): the door sends the headers alone.
    public func answer(to request: ServerRequest, mountedAt mount: String = "", logger: Logger) async -> ImageAnswer {
        await answer(to: request, mountedAt: mount, logger: logger, disconnect: nil, watch: nil)
    }

    /// `answer(to:mountedAt:logger:)`, with the client's leaving told by `disconnect` or watched
    /// by `watch` (`answer(path:…)`): the door's own means of seeing it.
    package func answer(
        to request: ServerRequest, mountedAt mount: String, logger: Logger, disconnect: ClientDisconnect?, watch: ClientWatch?
    ) async -> ImageAnswer {
        guard let path = routedPath(request.path, mount: mount) else { return ImageAnswer.text(404, "not found") }
        switch request.method.uppercased() {
        case "OPTIONS": return configuration.allowedOrigin == nil ? methodNotAllowed : preflightAnswer
        case "GET": return await getAnswer(path: path, request: request, logger: logger, disconnect: disconnect, watch: watch)
        case "HEAD":
            // The GET's status and headers (its Content-Length among them), no body.
            var answer = await getAnswer(path: path, request: request, logger: logger, disconnect: disconnect, watch: watch)
            answer.body = Data()
            return answer
        default: return methodNotAllowed
        }
    }

    /// The answer to a GET of `path` (what follows the mount and prefix).
    private func getAnswer(
        path: String, request: ServerRequest, logger: Logger, disconnect: ClientDisconnect?, watch: ClientWatch?
    ) async -> ImageAnswer {
        if let service = serviceAnswer(path) { return service }
        if let refusal = await refusal(authorization: request[header: "Authorization"], path: path, logger: logger) {
            return withCORS(refusal)
        }
        let ifNoneMatch = request[header: "If-None-Match"]
        if let rest = Self.remainder(of: path, after: "/placeholder/") {
            let kind = rest.prefix { $0 != "/" }
            let imagePath = String(rest.dropFirst(kind.count))
            return withCORS(await placeholderAnswer(
                kind: PlaceholderKind(rawValue: String(kind)), path: imagePath, logger: logger, disconnect: disconnect))
        }
        if let rest = Self.remainder(of: path, after: "/info/") {
            return withCORS(await infoAnswer(path: "/" + rest, ifNoneMatch: ifNoneMatch, logger: logger, disconnect: disconnect))
        }
        return withCORS(await answer(
            path: path, accept: request[header: "Accept"], ifNoneMatch: ifNoneMatch, logger: logger, disconnect: disconnect, watch: watch))
    }

    /// `/health`, the configured health path, `/ready` and `/metrics` (when served here): no
    /// secret, no CORS, not counted; nil for other paths.
    private func serviceAnswer(_ path: String) -> ImageAnswer? {
        switch path {
        case "/health", Self.mountPath(configuration.healthCheckPath ?? ""): healthAnswer
        case "/ready": readyAnswer
        case "/metrics" where configuration.metricsPort == nil: metricsAnswer
        default: nil
        }
    }

    /// What follows the door's mount and `pathPrefix` in `path` (what a signature covers), or nil
    /// when `path` is not under them. A run of slashes at the start counts as one, as Vapor's
    /// request URL has it before any door sees it.
    private func routedPath(_ path: String, mount: String) -> String? {
        var rest = Substring("/" + path.drop { $0 == "/" })
        for prefix in [Self.mountPath(mount), Self.mountPath(configuration.pathPrefix)] where !prefix.isEmpty {
            guard rest.hasPrefix(prefix), rest.count == prefix.count || rest.dropFirst(prefix.count).first == "/" else { return nil }
            rest = rest.dropFirst(prefix.count)
        }
        return rest.isEmpty ? "/" : String(rest)
    }

    /// A mount point or prefix as a path: "img/", "/img" and "img" are all "/img"; "" and "/" are "".
    package static func mountPath(_ prefix: String) -> String {
        let trimmed = prefix.split(separator: "/").joined(separator: "/")
        return trimmed.isEmpty ? "" : "/" + trimmed
    }

    /// What follows `start` in `path`, when `path` starts with it.
    private static func remainder(of path: String, after start: String) -> Substring? {
        path.hasPrefix(start) ? path.dropFirst(start.count) : nil
    }

    /// 405 to a method the server does not answer, with the methods it does.
    private var methodNotAllowed: ImageAnswer {
        var answer = ImageAnswer.text(405, "method not allowed")
        answer.headers.append(("Allow", configuration.allowedOrigin == nil ? "GET, HEAD" : "GET, HEAD, OPTIONS"))
        return answer
    }
}
