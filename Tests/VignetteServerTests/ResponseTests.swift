import Testing
import Vignette
import VignetteHTTP
import VignetteServer

@Suite("Responses: format negotiation and failure statuses")
struct ResponseTests {
    @Test("Accept: AVIF, then WebP, then JPEG or PNG; q=0 and wildcards do not count")
    func negotiation() throws {
        let browser = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        func encoding(_ accept: String, quality: Int? = nil) throws -> OutputEncoding {
            var recipe = ImageRecipe()
            recipe.quality = quality
            return try recipe.encoding(accepting: FormatNegotiation(accept: accept).accepted).encoding
        }
        #expect(try encoding(browser) == .fixed(.avif(HEIFOptions(quality: 50))))
        #expect(try encoding("image/webp,*/*", quality: 70) == .fixed(.webp(WebPOptions(quality: 70))))
        #expect(try encoding("image/avif;q=0, image/webp;q=0.5") == .fixed(.webp(WebPOptions(quality: 80))))
        #expect(try encoding("*/*", quality: 60) == .jpegOrPNG(quality: 60))
        #expect(try encoding("image/*") == .jpegOrPNG(quality: 80))
        #expect(FormatNegotiation(accept: nil) == FormatNegotiation(accept: ""))
        #expect(FormatNegotiation(accept: "IMAGE/AVIF ; Q=1").acceptsAVIF)
        // Malformed parameters are ignored, not fatal: a q that is not a number counts as absent.
        #expect(FormatNegotiation(accept: "image/avif;q=abc,;;,=,image/webp;q").acceptsWebP)
    }

    @Test("the server's own failures give the same status and reason through the library's mapping")
    func serverFailures() {
        for failure in [ServerFailure.badRequest("the URL has no source"), .forbidden("invalid signature"), .notFound, .overloaded(retryAfter: 3)] {
            #expect(ImageFailure(failure).httpStatus == failure.status && ImageFailure(failure).reason == failure.reason)
        }
        #expect(ImageFailure(ServerFailure(status: 418, "teapot")).httpStatus == 500)
    }

    @Test("pipeline failures map to the documented statuses", arguments: [
        (ImagePipelineError.decodingFailed(ImagingError(.limitExceeded, "x")), 413),
        (.decodingFailed(ImagingError(.unsupportedFormat, "x")), 415),
        (.decodingFailed(ImagingError(.corruptData, "x")), 422),
        (.decodingFailed(ImagingError(.truncatedData, "x")), 422),
        (.dataLoadingFailed(DataLoadingError(.notFound, "no such file /srv/a.jpg")), 404),
        (.dataLoadingFailed(ImagingError(.io, "cannot read /srv/a.jpg: no such file or permission")), 500),
        (.invalidRequest(ImagingError(.invalidArgument, "thumbnail box must be between 1 and 100000 pixels a side, got -5x100")), 400),
        (.dataLoadingFailed(HTTPLoadingError(.badStatus, url: "u", statusCode: 404, message: "m")), 404),
        (.dataLoadingFailed(HTTPLoadingError(.badStatus, url: "u", statusCode: 500, message: "m")), 502),
        (.dataLoadingFailed(HTTPLoadingError(.connectionFailed, url: "u", message: "m")), 502),
        (.dataLoadingFailed(HTTPLoadingError(.timedOut, url: "u", message: "m")), 504),
        (.dataLoadingFailed(HTTPLoadingError(.responseTooLarge, url: "u", message: "m")), 413),
        (.encodingFailed(ImagingError(.invalidArgument, "x")), 400),
        (.cancelled, 503),
    ])
    func statuses(error: ImagePipelineError, status: Int) {
        let failure = ServerFailure(error)
        #expect(failure.status == status)
        // The body never carries the library's message or a path.
        #expect(failure.reason != "x" && !failure.reason.isEmpty)
        #expect(!failure.reason.contains("/") && !failure.reason.contains("no such file"))
    }
}
