import Testing
import Vignette
import VignetteHTTP

/// A source server's failure is answered by what it was, and the answer names nothing of the source.
@Suite("HTTP loading errors know their status")
struct HTTPLoadingErrorStatusTests {
    @Test("404 and 410 are 404; too large 413; a timeout 504; a bad URL 400; every other failure 502")
    func statuses() {
        let url = "http://10.0.0.7/private/photo.jpg"
        let cases: [(HTTPLoadingError, Int)] = [
            (HTTPLoadingError(.badStatus, url: url, statusCode: 404, message: "HTTP 404"), 404),
            (HTTPLoadingError(.badStatus, url: url, statusCode: 410, message: "HTTP 410"), 404),
            (HTTPLoadingError(.badStatus, url: url, statusCode: 403, message: "HTTP 403"), 502),
            (HTTPLoadingError(.badStatus, url: url, statusCode: 500, message: "HTTP 500"), 502),
            (HTTPLoadingError(.responseTooLarge, url: url, message: "over 100 bytes"), 413),
            (HTTPLoadingError(.timedOut, url: url, message: "read timed out"), 504),
            (HTTPLoadingError(.invalidURL, url: url, message: "not a URL"), 400),
            (HTTPLoadingError(.connectionFailed, url: url, message: "refused"), 502),
            (HTTPLoadingError(.tooManyRedirects, url: url, message: "3 redirects"), 502),
        ]
        for (error, status) in cases {
            #expect(error.httpStatus == status, "\(error)")
            // Through the pipeline's error, as a service sees it.
            let failure = ImageFailure(ImagePipelineError.dataLoadingFailed(error))
            #expect(failure.httpStatus == status)
            #expect(!failure.reason.contains("10.0.0.7") && !failure.reason.contains("photo"))
        }
    }
}
