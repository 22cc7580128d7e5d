/// A face found in an image (`FaceDetector`), in fractions (0–1) of the upright image's width and
/// height, so it holds for the image at any size.
public struct Face: Sendable, Hashable, Codable {
    /// The box's left and top edges and its sides.
    public var x: Double, y: Double, width: Double, height: Double
    /// The detector's confidence, 0–1.
    public var score: Double
    /// Five landmarks, x then y each: the right eye, the left eye, the nose tip, the right and the
    /// left corners of the mouth (the person's right and left).
    public var landmarks: [Double]

    /// A face with this box, score and landmarks.
    public init(x: Double, y: Double, width: Double, height: Double, score: Double, landmarks: [Double] = []) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.score = score
        self.landmarks = landmarks
    }

    /// The middle of the box.
    public var centre: (x: Double, y: Double) { (x + width / 2, y + height / 2) }
}
