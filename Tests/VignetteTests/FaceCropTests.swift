#if Faces
import Foundation
import MetricsTestKit
import Testing
@testable import Vignette
import VignetteImgproxy

/// `g:obj:face` through the pipeline: crops that hold the faces (counted by detecting again in the
/// result), one detection per source, and attention's bytes where there is no face or no model.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: FaceModel.path), "../shared/models is absent beside the checkout"))
struct FaceCropTests {
    static func photo(_ name: String) -> String { Files.repository.appendingPathComponent("Tests/Photos/\(name)").path }

    func pipeline(model: Bool = true, metrics: TestMetrics? = nil) throws -> ImagePipeline {
        let detector = model ? try FaceDetector(modelPath: FaceModel.path) : nil
        return ImagePipeline.testing(loader: FileDataLoader(limits: .untrusted)) {
            $0.faceDetector = detector
            $0.metricsFactory = metrics
            $0.encodedImageCache = nil
        }
    }

    func result(_ options: String, of photo: String, in pipeline: ImagePipeline) async throws -> Data {
        let request = try ImgproxyOptions().recipe(options).request(for: .file(photo))
        return try await pipeline.encodedImage(for: request, as: .fixed(.png(PNGOptions()))).image.data
    }

    func facesIn(_ data: Data) throws -> Int { try FaceDetector(modelPath: FaceModel.path).faces(inSource: data).count }

    @Test("a crop that can hold both faces holds both; one that cannot keeps one whole", arguments: [
        ("rs:fill:1000:600/g:obj:face", 2), ("rs:fill:600:600/g:obj:face", 1), ("c:1000:600:obj:face/rs:fit:500:500", 2),
        ("rs:fill:300:300/g:obj:face", 1), ("rs:fill-down:2000:1200/g:obj:face", 2), ("rs:fill-down:600:600/g:obj:face", 1),
    ])
    func keepsFaces(options: String, faces: Int) async throws {
        let made = try await result(options, of: Self.photo("pair.jpg"), in: try pipeline())
        #expect(try facesIn(made) == faces)
    }

    @Test("a face near the side of a wide frame is kept, in a square and in a narrow crop")
    func edge() async throws {
        let pipeline = try pipeline()
        #expect(try facesIn(try await result("rs:fill:500:500/g:obj:face", of: Self.photo("edge.jpg"), in: pipeline)) == 1)
        #expect(try facesIn(try await result("rs:fill:300:600/g:obj:face", of: Self.photo("edge.jpg"), in: pipeline)) == 1)
    }

    @Test("no face found, or no model: attention's crop byte for byte")
    func fallsBackToAttention() async throws {
        let withModel = try pipeline(), without = try pipeline(model: false)
        for (photo, pipeline) in [(Files.fixture("baseline.jpg"), withModel), (Self.photo("pair.jpg"), without)] {
            for (faces, attention) in [("rs:fill:200:300/g:obj:face", "rs:fill:200:300/g:sm"), ("c:300:200:obj:face", "c:300:200:sm")] {
                let a = try await result(faces, of: photo, in: pipeline), b = try await result(attention, of: photo, in: pipeline)
                #expect(a == b, "\(faces) of \(photo)")
            }
        }
    }

    @Test("ten crops of one photo detect its faces once")
    func detectsOnce() async throws {
        let metrics = TestMetrics()
        let pipeline = try pipeline(metrics: metrics)
        for side in 0..<10 { _ = try await result("rs:fill:\(200 + side * 10):300/g:obj:face", of: Self.photo("pair.jpg"), in: pipeline) }
        #expect(try metrics.expectCounter("vignette_face_detections_total").totalValue == 1)
        let faces = try await pipeline.faces(for: ImageRequest(path: Self.photo("pair.jpg")))
        #expect(faces.count == 2)
        #expect(try metrics.expectCounter("vignette_face_detections_total").totalValue == 1)
    }

    @Test("/info's detect_objects lists the faces, and a crop at obj:face is placed on them")
    func info() async throws {
        var options = ImageInfoOptions()
        var delivery = ImgproxyOptions.Delivery()
        for segment in ["do:1", "c:600:600:obj:face", "exif:0", "iptc:0", "xmp:0"] { try options.apply(segment[...], delivery: &delivery) }
        let request = try options.recipe.request(for: .file(Self.photo("pair.jpg")))
        let text = try await pipeline().info(for: request, options: options)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let objects = try #require(json["objects"] as? [[String: Any]])
        #expect(objects.count == 2)
        #expect(objects.allSatisfy { $0["class_name"] as? String == "face" && ($0["confidence"] as? Double ?? 0) >= 0.8 })
        let crop = try #require(json["crop"] as? [String: Double])
        let left = try #require(objects.map { $0["left"] as? Double ?? 1 }.min())
        // The larger face (the left one) is kept whole: the window starts at or before it.
        #expect(try #require(crop["left"]) <= left)
        let refused = await #expect(throws: ImagePipelineError.self) { _ = try await self.pipeline(model: false).info(for: request, options: options) }
        #expect(refused != nil)
    }

    @Test("g:obj with other classes is refused, naming what is supported")
    func otherClasses() {
        for options in ["g:obj:cat", "g:obj", "g:obj:face:dog", "c:100:100:obj:car"] {
            #expect(throws: ImagingError.self) { try ImgproxyOptions().recipe(options) }
        }
        #expect((try? ImgproxyOptions().recipe("g:obj:face"))?.gravity == .faces)
    }
}

enum FaceModel {
    static let path = Files.repository.deletingLastPathComponent().appendingPathComponent("shared/models/\(FaceDetector.modelFileName ?? "")").path
}
#endif
