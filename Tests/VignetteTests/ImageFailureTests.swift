import Foundation
import Testing
@testable import Vignette

/// Pipeline errors carry the kind of failure they are and the status it deserves, and what a
/// client may read of them names nothing of the server.
@Suite("Errors that know their status")
struct ImageFailureTests {
    let thumbnail = ThumbnailOptions(size: 64)

    /// The failure `request` ends in, through `encodedImage(for:as:)`.
    func failure(of request: ImageRequest, pipeline: ImagePipeline = ImagePipeline()) async -> ImagePipelineError? {
        do {
            _ = try await pipeline.encodedImage(for: request, as: .jpegOrPNG())
            return nil
        } catch {
            return error
        }
    }

    @Test("a box of -5 pixels is a bad request (400) found before the source is read, not an encoding failure")
    func badBox() async throws {
        let loader = CountingLoader()
        let pipeline = ImagePipeline.testing(loader: loader)
        let request = ImageRequest(path: Files.fixture("baseline.jpg"), thumbnail: ThumbnailOptions(width: -5, height: 100))
        let error = try #require(await failure(of: request, pipeline: pipeline))
        guard case .invalidRequest(let imaging) = error else { Issue.record("\(error)"); return }
        #expect(imaging.kind == .invalidArgument)
        #expect(error.httpStatus == 400 && error.imageFailure.status == .badRequest)
        #expect(error.imageFailure.reason.contains("-5"))
        #expect(loader.started == 0)
        // The same through image(for:), and before a missing file would be found missing.
        await #expect(throws: ImagePipelineError.self) {
            _ = try await pipeline.image(for: ImageRequest(path: "/nowhere/missing.jpg", thumbnail: ThumbnailOptions(size: 0)))
        }
        let missingAndBad = try #require(await failure(of: ImageRequest(path: "/nowhere/missing.jpg", thumbnail: ThumbnailOptions(size: 0))))
        #expect(missingAndBad.httpStatus == 400)
    }

    @Test("a missing file is 404 and its reason names no path; the error's description keeps it for logs")
    func missingFile() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for path in [folder + "/missing.jpg", folder + "/not-a-folder.jpg/inside.jpg", folder] {
            if path.hasSuffix("inside.jpg") { #expect(FileManager.default.createFile(atPath: folder + "/not-a-folder.jpg", contents: Data([1]))) }
            let error = try #require(await failure(of: ImageRequest(path: path, thumbnail: thumbnail)))
            guard case .dataLoadingFailed(let underlying as DataLoadingError) = error else { Issue.record("\(path): \(error)"); continue }
            #expect(underlying.kind == .notFound, "\(path)")
            #expect(error.httpStatus == 404, "\(path)")
            #expect(!error.imageFailure.reason.contains(folder))
            #expect(!ImageFailure(error).description.contains("/"))
            #expect(error.description.contains(folder))
        }
    }

    @Test("a file that is there but cannot be read is the server's problem (500), not a missing source")
    func unreadableFile() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/pipe.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        let error = try #require(await failure(of: ImageRequest(path: fifo, thumbnail: thumbnail)))
        #expect(error.httpStatus == 500, "\(error)")
        #expect(!error.imageFailure.reason.contains(folder))
    }

    @Test(
        "broken, too large and unreadable sources: 422, 413, 415, with reasons that name no path",
        arguments: [
            ("cut-short.jpg", 422), ("cut-short.png", 422), ("corrupt.jpg", 422), ("corrupt.png", 422),
            ("huge-declared.png", 413), ("hostile-progressive.jpg", 413), ("not-an-image.txt", 415), ("unknown.bin", 415),
        ])
    func sources(file: String, status: Int) async throws {
        let error = try #require(await failure(of: ImageRequest(path: Files.fixture(file), thumbnail: thumbnail)))
        #expect(error.httpStatus == status, "\(file): \(error)")
        #expect(!error.imageFailure.reason.contains("/"), "\(file): \(error.imageFailure)")
    }

    @Test("a source over the byte budget is 413")
    func tooManyBytes() async throws {
        var limits = DecodingLimits.untrusted
        limits.maxInputBytes = 100
        let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: FileDataLoader(limits: limits)))
        let error = try #require(await failure(of: ImageRequest(path: Files.fixture("baseline.jpg"), thumbnail: thumbnail), pipeline: pipeline))
        #expect(error.httpStatus == 413, "\(error)")
    }

    @Test("the mapping of any error: stopped 503, a timeout 504, a loader's unknown error 502, an unknown one 500")
    func anyError() {
        struct Unknown: Error {}
        struct Teapot: ImageFailureConvertible {
            var imageFailure: ImageFailure { ImageFailure(.forbidden, reason: "no") }
        }
        #expect(ImageFailure(CancellationError()).httpStatus == 503)
        #expect(ImageFailure(ImagePipelineError.cancelled).httpStatus == 503)
        #expect(ImageFailure(ImagePipelineError.pipelineInvalidated).httpStatus == 503)
        #expect(ImageFailure(ImagePipelineError.dataMissingInCache).httpStatus == 404)
        #expect(ImageFailure(Unknown()) == .notMade)
        #expect(ImageFailure(ImagePipelineError.dataLoadingFailed(Unknown())) == .sourceFailed)
        #expect(ImageFailure(ImagePipelineError.dataLoadingFailed(Teapot())).httpStatus == 403)
        #expect(ImageFailure(ImagePipelineError.processingFailed(processor: "p", Unknown())).httpStatus == 500)
        #expect(ImageFailure(ImagePipelineError.processingFailed(processor: "p", Teapot())).httpStatus == 403)
        #expect(ImageFailure(ImagePipelineError.encodingFailed(ImagingError(.encoderUnavailable, "x"))).httpStatus == 415)
        #expect(ImageFailure(ImagePipelineError.encodingFailed(ImagingError(.unsupportedFormat, "x"))).httpStatus == 415)
        #expect(ImageFailure(ImagePipelineError.encodingFailed(ImagingError(.invalidArgument, "x"))).httpStatus == 400)
        #expect(ImageFailure.timedOut.httpStatus == 504)
        #expect(ImageFailure(DataLoadingError(.noLoader, "http://x")).httpStatus == 500)
        // Every kind of imaging failure has its status, and no reason carries the message.
        for kind in ImagingError.Kind.allCases {
            let failure = ImagingError(kind, "/secret/path.jpg: boom").imageFailure
            #expect(!failure.reason.contains("/secret"), "\(kind)")
            #expect(ImageFailure.Status(rawValue: failure.httpStatus) == failure.status)
        }
        #expect(ImageFailure.Status.allCases.filter(\.isServerError).map(\.httpStatus) == [500, 502, 503, 504])
    }

    @Test("an encoding with a quality out of range is a bad request (400) whose reason says nothing of the library")
    func badEncoding() async throws {
        let request = ImageRequest(path: Files.fixture("baseline.jpg"), thumbnail: thumbnail)
        let error: ImagePipelineError
        do {
            _ = try await ImagePipeline().encodedImage(for: request, as: .fixed(.jpeg(JPEGOptions(quality: 500))))
            Issue.record("encoded with quality 500")
            return
        } catch let caught {
            error = caught
        }
        #expect(error.httpStatus == 400)
    }
}
