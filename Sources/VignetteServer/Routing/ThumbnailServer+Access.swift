import Logging
import Vignette

extension ThumbnailServer {
    /// Checks an image, `/info` or `/placeholder` request's `Authorization` header against
    /// `ServerConfiguration.authorizationSecret`: with a secret it must be `Bearer SECRET`,
    /// compared in constant time; without one any request passes.
    /// - Throws: `ImageFailure` 403 when the header is missing or wrong.
    package func checkAuthorization(_ header: String?) throws(ImageFailure) {
        guard let secret = configuration.authorizationSecret else { return }
        let expected = Array("Bearer \(secret)".utf8), given = Array((header ?? "").utf8)
        var difference: UInt8 = given.count == expected.count ? 0 : 1
        for (index, byte) in expected.enumerated() { difference |= byte ^ (index < given.count ? given[index] : 0) }
        guard difference == 0 else { throw .forbidden("invalid secret") }
    }

    /// The answer to a request `checkAuthorization(_:)` refuses: 403, counted and logged as every
    /// failure is; nil when the request may go on.
    package func refusal(authorization: String?, path: String, logger: Logger) async -> ImageAnswer? {
        do throws(ImageFailure) {
            try checkAuthorization(authorization)
            return nil
        } catch {
            return await counted(path: path, logger: logger) { throw error }
        }
    }

    /// `answer` with the CORS headers of `ServerConfiguration.allowedOrigin`, when one is set.
    package func withCORS(_ answer: ImageAnswer) -> ImageAnswer {
        guard let origin = configuration.allowedOrigin else { return answer }
        var answer = answer
        answer.headers += [("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Methods", "GET, OPTIONS")]
        return answer
    }

    /// The answer to an `OPTIONS` request when CORS is on: 200 with the CORS headers.
    package var preflightAnswer: ImageAnswer { withCORS(ImageAnswer(status: 200, headers: [("Content-Length", "0")])) }
}
