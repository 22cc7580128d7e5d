/// How bad a damaged file must be before decoding fails: libvips' `fail_on`.
public enum FailOn: String, Sendable, CaseIterable, Codable {
    /// Decode whatever can be decoded; missing parts come out grey.
    case none
    /// Fail when the data ends early.
    case truncated
    /// Fail on any decoder error (and on truncation).
    case error
    /// Fail even on decoder warnings.
    case warning
}

/// Budgets checked from the header, before any pixel is decoded.
///
/// The pixel budget is on what will actually be decoded: a thumbnail of a 280-megapixel JPEG that
/// shrink-on-load decodes at 1/8 scale costs 4.4 megapixels, while a 4-gigapixel PNG (which has no
/// shrink-on-load) is refused in milliseconds.
public struct DecodingLimits: Sendable, Hashable, Codable {
    /// Most pixels (width × height of one frame, as decoded) a decode may produce.
    public var maxPixels: Int
    /// Most bytes of encoded input accepted.
    public var maxInputBytes: Int
    /// Most frames (pages) a file may declare.
    public var maxFrames: Int
    /// How damaged input is treated.
    public var failOn: FailOn

    public init(maxPixels: Int, maxInputBytes: Int, maxFrames: Int, failOn: FailOn) {
        self.maxPixels = maxPixels
        self.maxInputBytes = maxInputBytes
        self.maxFrames = maxFrames
        self.failOn = failOn
    }

    /// Defaults for input from strangers: 100 megapixels decoded, 100 MiB of input, 1,000 frames,
    /// and failure on any decoder error or truncation (warnings pass, as many real files carry them).
    public static let untrusted = DecodingLimits(
        maxPixels: 100_000_000, maxInputBytes: 100 << 20, maxFrames: 1_000, failOn: .error)

    /// No budgets and libvips' own leniency: for files you made yourself.
    public static let unlimited = DecodingLimits(
        maxPixels: .max, maxInputBytes: .max, maxFrames: .max, failOn: .none)

    func checkBytes(_ count: Int) throws(ImagingError) {
        if count > maxInputBytes {
            throw ImagingError(.limitExceeded, "input is \(count) bytes, over the limit of \(maxInputBytes)")
        }
    }

    func checkFrames(_ count: Int) throws(ImagingError) {
        if count > maxFrames {
            throw ImagingError(.limitExceeded, "input declares \(count) frames, over the limit of \(maxFrames)")
        }
    }

    func checkPixels(width: Int, height: Int, note: String = "") throws(ImagingError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            let suffix = note.isEmpty ? "" : " \(note)"
            throw ImagingError(
                .limitExceeded,
                "image is \(width)x\(height) (\(overflow ? "too many" : String(pixels)) pixels\(suffix)), over the limit of \(maxPixels) pixels")
        }
    }
}
