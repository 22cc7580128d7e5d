#if Faces
import Foundation
import Testing
import Vignette
import VignetteServer

/// `g:obj:face` through the server: with `--face-model` the answer says the faces it kept
/// (`Vignette-Crop`); without one it is attention's crop, said so; a model that does not load
/// stops the server at start with OpenCV's reason.
@Suite("Server: faces", .enabled(if: FileManager.default.fileExists(atPath: FaceFiles.model), "../shared/models is absent beside the checkout"))
struct FaceServerTests {
    static let model = FaceFiles.model, photos = FaceFiles.photos

    @Test("the answer says how a faces crop was placed, with and without a model")
    func header() async throws {
        try await RunningServer.with({ $0.localRoot = Self.photos; $0.faceModelPath = Self.model }) { server in
            let reply = try await server.get("/insecure/rs:fill:600:600/g:obj:face/plain/local:///pair.jpg@png")
            #expect(reply.status == 200)
            #expect(reply.header("Vignette-Crop") == "faces; n=2")
            let plain = try await server.get("/insecure/rs:fill:600:600/g:sm/plain/local:///pair.jpg@png")
            #expect(plain.header("Vignette-Crop") == nil)
        }
        try await RunningServer.with({ $0.localRoot = Self.photos }) { server in
            let faces = try await server.get("/insecure/rs:fill:600:600/g:obj:face/plain/local:///pair.jpg@png")
            let attention = try await server.get("/insecure/rs:fill:600:600/g:sm/plain/local:///pair.jpg@png")
            #expect(faces.header("Vignette-Crop") == "attention")
            #expect(faces.body == attention.body)
        }
    }

    @Test("a model cut short stops the server at start, naming the file")
    func badModel() throws {
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-cut-\(getpid()).onnx")
        try Data(try Data(contentsOf: URL(fileURLWithPath: Self.model)).prefix(2000)).write(to: cut)
        defer { try? FileManager.default.removeItem(at: cut) }
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, localRoot: Self.photos)
        configuration.faceModelPath = cut.path
        #expect {
            _ = try ThumbnailServer(configuration: configuration)
        } throws: { error in
            (error as? ImagingError)?.message.contains(cut.path) == true
        }
    }
}

/// The YuNet model beside the checkout and the photos of people in Tests/Photos.
enum FaceFiles {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let model = repository.deletingLastPathComponent().appendingPathComponent("shared/models/\(FaceDetector.modelFileName ?? "")").path
    static let photos = repository.appendingPathComponent("Tests/Photos").path
}
#endif
