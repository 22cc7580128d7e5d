#if Faces
import Foundation
import Testing
@testable import VignetteCodecs

/// YuNet through `FaceDetector` against OpenCV's own Python binding (Debian's python3-opencv, the
/// same OpenCV) on the same decoded pixels; the model's failures; where a crop goes.
@Suite(.enabled(if: FaceFiles.modelAvailable, "../shared/models is absent beside the checkout"))
struct FaceDetectorTests {
    static let photos = ["obama.jpg", "biden.jpg", "astronaut.jpg", "pair.jpg", "edge.jpg"]

    @Test("every face OpenCV's Python binding finds, Vignette finds with IoU ≥ 0.9", arguments: photos)
    func matchesOpenCV(photo: String) throws {
        let detector = try FaceDetector(modelPath: FaceFiles.model)
        var options = ThumbnailOptions(width: FaceDetector.inputSide, height: FaceDetector.inputSide, fit: .inside)
        options.autoOrient = true
        let small = try Thumbnailer(options: options).thumbnail(try Data(contentsOf: FaceFiles.photo(photo))).image
        let ours = try detector.faces(in: small)
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-faces-\(getpid())-\(photo).png")
        defer { try? FileManager.default.removeItem(at: png) }
        try ImageEncoder.encode(small, as: .png(PNGOptions())).write(to: png)
        let theirs = try FaceFiles.openCVBoxes(png.path, threshold: FaceDetector.defaultScoreThreshold)
        #expect(!theirs.isEmpty, "OpenCV finds a face in \(photo)")
        #expect(ours.count == theirs.count)
        for box in theirs {
            let best = ours.map { FaceFiles.iou($0, box, width: Double(small.width), height: Double(small.height)) }.max() ?? 0
            #expect(best >= 0.9, "\(photo): OpenCV's box \(box) is matched with IoU \(best)")
        }
    }

    @Test("a model that is missing, cut short or not a model is a clear error, never a crash")
    func badModels() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-models-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cut = folder.appendingPathComponent("cut.onnx"), png = folder.appendingPathComponent("picture.onnx")
        try Data(try Data(contentsOf: URL(fileURLWithPath: FaceFiles.model)).prefix(4000)).write(to: cut)
        try Data(contentsOf: TestFiles.fixture("alpha.png")).write(to: png)
        for path in [cut.path, png.path, folder.appendingPathComponent("absent.onnx").path] {
            let error = expectImagingError { () throws(ImagingError) in _ = try FaceDetector(modelPath: path) }
            #expect(error?.kind == .invalidArgument)
            #expect(error?.message.contains(path) == true)
        }
    }

    @Test("YuNet's model for the other OpenCV is refused at once, naming the model and this OpenCV")
    func otherOpenCVsModel() throws {
        let other = FaceFiles.model.contains("2022mar")
            ? FaceFiles.model.replacingOccurrences(of: "2022mar", with: "2023mar")
            : FaceFiles.model.replacingOccurrences(of: "2023mar", with: "2022mar")
        try #require(FileManager.default.fileExists(atPath: other), "both YuNet models are in ../shared/models")
        let error = expectImagingError { () throws(ImagingError) in _ = try FaceDetector(modelPath: other) }
        #expect(error?.kind == .invalidArgument)
        #expect(error?.message.contains(other) == true)
        #expect(error?.message.contains("OpenCV \(FaceDetector.openCVVersion ?? "?")") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(FaceDetector.modelFileName ?? "?") == true)
    }

    @Test("no face in a picture without people")
    func noFace() throws {
        let detector = try FaceDetector(modelPath: FaceFiles.model)
        #expect(try detector.faces(inSource: Data(contentsOf: TestFiles.fixture("baseline.jpg"))).isEmpty)
    }
}

/// Where `FacePlacement` puts a window: pure arithmetic, no detector.
struct FacePlacementTests {
    let left = Face(x: 0.10, y: 0.2, width: 0.15, height: 0.2, score: 1)
    let right = Face(x: 0.80, y: 0.2, width: 0.10, height: 0.15, score: 0.95)

    func window(_ focus: CropPosition, width: Double) -> ClosedRange<Double> { (focus.x - width / 2)...(focus.x + width / 2) }

    @Test("faces that fit are all kept whole")
    func allFit() throws {
        let focus = try #require(FacePlacement.focus(of: [left, right], windowWidth: 0.85, windowHeight: 1))
        let span = window(focus, width: 0.85)
        #expect(span.contains(left.x) && span.contains(right.x + right.width))
    }

    @Test("when they cannot all fit, the largest and most confident is kept whole")
    func largestKept() throws {
        let focus = try #require(FacePlacement.focus(of: [right, left], windowWidth: 0.4, windowHeight: 1))
        let span = window(focus, width: 0.4)
        #expect(span.contains(left.x) && span.contains(left.x + left.width))
        #expect(!span.contains(right.centre.x))
    }

    @Test("no faces, no focus point; a window at an edge stays inside the image")
    func edges() throws {
        #expect(FacePlacement.focus(of: [], windowWidth: 0.5, windowHeight: 0.5) == nil)
        let edge = Face(x: 0, y: 0, width: 0.05, height: 0.05, score: 1)
        let focus = try #require(FacePlacement.focus(of: [edge], windowWidth: 0.5, windowHeight: 0.5))
        #expect(focus.x == 0.25 && focus.y == 0.25 && focus.isFocusPoint)
    }
}

/// The model beside the checkout and the photos of people in Tests/Photos.
enum FaceFiles {
    /// The model this build's OpenCV runs (2022mar for 4.6, 2023mar for 4.8 and later).
    static let model = TestFiles.repository.deletingLastPathComponent()
        .appendingPathComponent("shared/models/\(FaceDetector.modelFileName ?? "")").path
    static var modelAvailable: Bool { FileManager.default.fileExists(atPath: model) }
    static func photo(_ name: String) -> URL { TestFiles.repository.appendingPathComponent("Tests/Photos/\(name)") }

    /// Boxes (x, y, width, height in pixels) that OpenCV's Python binding finds in `path`, at its size.
    static func openCVBoxes(_ path: String, threshold: Double) throws -> [[Double]] {
        let script = """
            import cv2, sys, json
            image = cv2.imread(sys.argv[1])
            detector = cv2.FaceDetectorYN.create(sys.argv[2], "", (image.shape[1], image.shape[0]), 0.3, 0.3, 5000)
            _, faces = detector.detect(image)
            print(json.dumps([[float(v) for v in face[:4]] for face in (faces if faces is not None else []) if face[14] >= float(sys.argv[3])]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, path, model, String(threshold)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ImagingError(.operationFailed, "python3 with cv2 failed (install python3-opencv)") }
        return try JSONDecoder().decode([[Double]].self, from: data)
    }

    /// Intersection over union of `face` (fractions) and `box` (pixels of an image of this size).
    static func iou(_ face: Face, _ box: [Double], width: Double, height: Double) -> Double {
        let (ax, ay, aw, ah) = (face.x * width, face.y * height, face.width * width, face.height * height)
        let (bx, by, bw, bh) = (box[0], box[1], box[2], box[3])
        let iw = max(0, min(ax + aw, bx + bw) - max(ax, bx)), ih = max(0, min(ay + ah, by + bh) - max(ay, by))
        let inter = iw * ih
        return inter / (aw * ah + bw * bh - inter)
    }
}
#endif
