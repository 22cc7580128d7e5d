#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if Faces
internal import CVignetteFaces
#endif
import VignetteSupport

/// Finds faces with OpenCV's YuNet detector (`cv::FaceDetectorYN`, Debian's OpenCV: 4.6 on
/// Debian 12, 4.10 on Debian 13) and the model file given: `face_detection_yunet_2022mar.onnx` for
/// OpenCV before 4.8, `face_detection_yunet_2023mar.onnx` from 4.8 on (`modelFileName`). Needs the
/// `Faces` trait; OpenCV is opened (dlopen) when the first detector is made.
///
/// Detection runs on the image brought to at most `inputSide` pixels on its long side: YuNet finds
/// faces of about 10 to 300 pixels in its input, and a full-size photo gives it false boxes. One
/// detector may be shared; its detections take turns.
public final class FaceDetector: @unchecked Sendable {
    /// The long side, in pixels, of the image the detector looks at.
    public static let inputSide = 640
    /// The lowest score kept by default.
    public static let defaultScoreThreshold = 0.8

    /// The version of OpenCV this build opens, from the headers it was built with ("4.6"), or nil
    /// without the `Faces` trait.
    public static var openCVVersion: String? {
        #if Faces
        let version = Int(vgn_faces_opencv_version())
        return "\(version / 100).\(version % 100)"
        #else
        return nil
        #endif
    }

    /// The YuNet model file that this build's OpenCV runs: `face_detection_yunet_2022mar.onnx`
    /// before OpenCV 4.8, `face_detection_yunet_2023mar.onnx` from 4.8 on (each OpenCV fails on
    /// the other's, so `init(modelPath:)` refuses the wrong one); nil without the `Faces` trait.
    public static var modelFileName: String? {
        #if Faces
        return vgn_faces_opencv_version() >= 408 ? "face_detection_yunet_2023mar.onnx" : "face_detection_yunet_2022mar.onnx"
        #else
        return nil
        #endif
    }

    /// The model file's path.
    public let modelPath: String
    /// The lowest score a face must have to be kept.
    public let scoreThreshold: Double

    #if Faces
    // The C detector, used only under `lock` (OpenCV's network is not safe to run twice at once).
    private let handle: OpaquePointer
    private let lock = Locked(())
    #endif

    /// Loads the model at `modelPath` (`cv::FaceDetectorYN::create`). Throws `.invalidArgument`
    /// with OpenCV's message when the file is missing or is not a model OpenCV can read, and
    /// naming both when it is YuNet's model for another OpenCV (see `modelFileName`);
    /// `.unsupportedFormat` when OpenCV cannot be loaded or the build has no `Faces` trait.
    public init(modelPath: String, scoreThreshold: Double = FaceDetector.defaultScoreThreshold) throws(ImagingError) {
        guard scoreThreshold.isFinite, (0...1).contains(scoreThreshold) else {
            throw ImagingError(.invalidArgument, "the face score threshold must be between 0 and 1, not \(scoreThreshold)")
        }
        self.modelPath = modelPath
        self.scoreThreshold = scoreThreshold
        #if Faces
        var message = [CChar](repeating: 0, count: 512)
        guard let made = vgn_face_detector_make(modelPath, &message, message.count) else {
            let reason = Self.text(message)
            let kind: ImagingError.Kind = reason.hasPrefix("OpenCV could not be loaded") || reason.contains(" lacks ") ? .unsupportedFormat : .invalidArgument
            throw ImagingError(kind, "the face model \(modelPath) could not be loaded: \(reason)")
        }
        handle = made
        #else
        throw ImagingError(.unsupportedFormat, "face detection needs the Faces trait, which this build does not have")
        #endif
    }

    #if Faces
    deinit { vgn_face_detector_free(handle) }
    #endif

    /// The faces in `image`, best first: the image is resized to at most `inputSide` on its long
    /// side, its sRGB pixels handed to `cv::FaceDetectorYN::detect`, and the boxes given as
    /// fractions of the image.
    public func faces(in image: Image) throws(ImagingError) -> [Face] {
        #if Faces
        let long = max(image.width, image.height)
        var small = image
        if long > Self.inputSide {
            let scale = Double(Self.inputSide) / Double(long)
            small = try image.resized(
                toWidth: max(1, Int((Double(image.width) * scale).rounded())), height: max(1, Int((Double(image.height) * scale).rounded())),
                kernel: .lanczos3)
        }
        let pixels = try small.pixels()
        let threshold = Float(scoreThreshold)
        let found = lock.withLock { _ in
            pixels.bytes.withUnsafeBufferPointer { bytes in
                Self.detect(handle, bytes, pixels, threshold: threshold)
            }
        }
        return try found.get()
        #else
        throw ImagingError(.unsupportedFormat, "face detection needs the Faces trait, which this build does not have")
        #endif
    }

    /// The faces in an encoded image (its `picture`: a PDF's page, a video's frame): decoded small
    /// and upright by `Thumbnailer` (shrink-on-load to at most `inputSide` on the long side, within
    /// `limits`), then `faces(in:)`.
    public func faces(inSource data: Data, picture: SourcePicture = .first, limits: DecodingLimits = .untrusted) throws(ImagingError) -> [Face] {
        var options = ThumbnailOptions(width: Self.inputSide, height: Self.inputSide, fit: .inside)
        options.page = picture.page
        options.videoSecond = picture.videoSecond
        return try faces(in: try Thumbnailer(options: options, limits: limits).thumbnail(data).image)
    }

    #if Faces
    private static func detect(
        _ handle: OpaquePointer, _ bytes: UnsafeBufferPointer<UInt8>, _ pixels: PixelBuffer, threshold: Float
    ) -> Result<[Face], ImagingError> {
        guard let base = bytes.baseAddress else { return .success([]) }
        var message = [CChar](repeating: 0, count: 512)
        var boxes = [vgn_face](repeating: vgn_face(), count: 64)
        let count = vgn_face_detector_detect(
            handle, base, Int32(pixels.width), Int32(pixels.height), Int32(pixels.bands), pixels.width * pixels.bands,
            threshold, &boxes, Int32(boxes.count), &message, message.count)
        guard count >= 0 else { return .failure(ImagingError(.operationFailed, "face detection failed: \(text(message))")) }
        let width = Double(pixels.width), height = Double(pixels.height)
        return .success(boxes.prefix(Int(count)).map { box in
            let marks = withUnsafeBytes(of: box.landmarks) { Array($0.bindMemory(to: Float.self)) }
            return Face(
                x: Double(box.x) / width, y: Double(box.y) / height, width: Double(box.width) / width, height: Double(box.height) / height,
                score: Double(box.score),
                landmarks: marks.enumerated().map { Double($1) / ($0.isMultiple(of: 2) ? width : height) })
        })
    }

    private static func text(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
    #endif
}
