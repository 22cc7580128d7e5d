import Foundation
import Testing
import Vignette
import VignetteHTTP
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

@Suite("Responses: format negotiation and failure statuses")
struct ResponseTests {
    @Test("Accept: AVIF, then WebP, then JPEG or PNG; q=0 and wildcards do not count")
    func negotiation() throws {
        let browser = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        func encoding(_ accept: String, quality: Int? = nil) throws -> OutputEncoding {
            var recipe = ImageRecipe()
            recipe.quality = quality
            return try recipe.encoding(accepting: FormatNegotiation(accept: accept).accepted)
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

    @Test("the server's own failures answer with their status and reason through the responder's one mapping")
    func serverFailures() {
        let responder = ImageResponder(pipeline: ImagePipeline(configuration: .init()))
        let cases: [(any Error, Int, String)] = [
            (ImageFailure.badRequest("the URL has no source"), 400, "the URL has no source"), (ImageFailure.forbidden("invalid signature"), 403, "invalid signature"),
            (ImageFailure.sourceNotFound, 404, "source not found"), (Admission.Refusal.overloaded(retryAfter: 3), 503, "overloaded, retry later"),
        ]
        for (error, status, reason) in cases {
            let answer = responder.failureAnswer(for: error, source: "x", logger: nil)
            #expect(answer.status == status && String(decoding: answer.body, as: UTF8.self) == reason + "\n")
        }
        #expect(responder.failureAnswer(for: Admission.Refusal.overloaded(retryAfter: 3), source: "x", logger: nil)[header: "Retry-After"] == "3")
        #expect(responder.failureAnswer(for: ImageFailure.stopped, source: "x", logger: nil)[header: "Retry-After"] == "1")
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
        let failure = ImageFailure(error)
        #expect(failure.httpStatus == status)
        // The body never carries the library's message or a path.
        #expect(failure.reason != "x" && !failure.reason.isEmpty)
        #expect(!failure.reason.contains("/") && !failure.reason.contains("no such file"))
    }
}

@Suite("ImageResponder: one image as an HTTP answer, no web framework")
struct ImageResponderTests {
    @Test("a data source with the recipe's own format: no Vary, the responder's max-age; the ETag is the result's, 304 for * too")
    func dataSource() async throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.folder + "/baseline.jpg"))
        let responder = ImageResponder(pipeline: ImagePipeline(configuration: .init()), maxAge: 60)
        var recipe = ImageRecipe(width: 40, height: 40)
        recipe.format = .png
        let source = ImageRequest.Source.data(id: "baseline") { bytes }
        let answer = await responder.respond(to: source, recipe: recipe, accept: "image/avif", ifNoneMatch: nil)
        #expect(answer.status == 200 && answer[header: "content-type"] == "image/png" && answer[header: "Vary"] == nil)
        #expect(answer[header: "Cache-Control"] == "public, max-age=60" && answer[header: "Last-Modified"] == nil)
        #expect(try ImageDecoder().probe(answer.body).width == 40)
        let again = await responder.respond(to: source, recipe: recipe, accept: nil, ifNoneMatch: "*")
        #expect(again.status == 304 && again.body.isEmpty && again[header: "ETag"] == answer[header: "ETag"])
    }

    @Test("a root refuses .. out of it and reads an absolute path under it; a 503 is answered with Retry-After; a format not written is 415")
    func refusals() async throws {
        let responder = try ImageResponder(pipeline: ImagePipeline(configuration: .init()), root: Fixtures.folder)
        for path in ["../Package.swift", "a/../../Package.swift", ".."] {
            let answer = await responder.respond(path: path, recipe: ImageRecipe(), accept: nil, ifNoneMatch: nil)
            #expect(answer.status == 403 && answer.failure?.status == .forbidden, "\(path)")
        }
        // An absolute path is joined to the root: a file under it, here none.
        #expect(await responder.respond(path: "/etc/passwd", recipe: ImageRecipe(), accept: nil, ifNoneMatch: nil).status == 404)
        #expect(throws: ImagingError.self) { try ImageResponder(pipeline: responder.pipeline, root: Fixtures.folder + "/baseline.jpg") }
        let stopped = ImageAnswer(failure: .stopped, maxAge: 10)
        #expect(stopped.status == 503 && stopped[header: "Retry-After"] == "1" && stopped.body == Data("the request was stopped\n".utf8))
        var recipe = ImageRecipe()
        recipe.format = ImageFormat(rawValue: "pcx")
        let unwritable = await responder.respond(path: "baseline.jpg", recipe: recipe, accept: nil, ifNoneMatch: nil)
        #expect(unwritable.status == 415)
    }
}
