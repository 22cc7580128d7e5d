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

/// The decoding budget: what a decode may cost, checked from the header before any pixel is
/// decoded, by every path that decodes (`ImageDecoder`, `Thumbnailer`, `ProgressiveDecoder`, the
/// pipeline and the `vignette` commands), so that they all reach the same verdict on the same input.
///
/// The budget is on what decoding will really cost (see `DecodingCost`), not on what the header
/// says alone: a 280-megapixel baseline JPEG thumbnailed through 1/8 shrink-on-load decodes 4.4
/// megapixels and passes; a progressive JPEG of that size does not (libjpeg keeps the DCT
/// coefficients of the whole image, whatever the scale); a HEIF/AVIF image counts its coded size
/// (the AV1 sequence header or HEVC SPS), not only its `ispe` box; an animated WebP or GIF is
/// composed on its full canvas.
public struct DecodingLimits: Sendable, Hashable, Codable {
    /// Most pixels a decode may produce: width × height as decoded (after shrink-on-load), summed
    /// over the frames decoded.
    public var maxPixels: Int
    /// Most pixels the decoder may have to go through at full size: the work of decoding. JPEG
    /// shrink-on-load still entropy-decodes every block of the image, so a 4-gigapixel JPEG costs
    /// that work even when it comes out at 1/8 scale.
    public var maxSourcePixels: Int
    /// Most bytes of memory decoding may need (`DecodingCost.memoryBytes`): the decoded pixels ×
    /// bands × bytes per band, plus libjpeg's whole-image coefficient buffers for progressive and
    /// multi-scan JPEG, plus the lines libvips keeps in flight while streaming.
    public var maxMemoryBytes: Int
    /// Most bytes of encoded input accepted.
    public var maxInputBytes: Int
    /// Most frames of an animation decoded: those past it are dropped, as imgproxy drops them
    /// (`IMGPROXY_MAX_ANIMATION_FRAMES`); a still decodes one frame, whatever the file declares.
    public var maxFrames: Int
    /// Most pixels of one frame of an animation kept whole (imgproxy's
    /// `IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION`); no limit of its own by default (`maxSourcePixels`
    /// and the budgets on every frame still apply).
    public var maxAnimationFramePixels: Int = .max
    /// How damaged input is treated.
    public var failOn: FailOn
    /// The opt-in kinds of input taken (PDF); the others are refused as `.unsupportedFormat` with
    /// `ImagingError.Code.inputNotAllowed`. All by default.
    public var allowedInputs: InputKinds = .all
    /// Most seconds an SVG or PDF page may take to render (libvips' kill flag, checked between
    /// tiles): past it the render fails with `.limitExceeded`. 10 by default.
    public var maxRenderSeconds = 10

    /// Limits with every budget given; `.untrusted` holds the defaults for input from outside.
    public init(
        maxPixels: Int, maxSourcePixels: Int = .max, maxMemoryBytes: Int = .max, maxInputBytes: Int,
        maxFrames: Int, failOn: FailOn
    ) {
        self.maxPixels = maxPixels
        self.maxSourcePixels = maxSourcePixels
        self.maxMemoryBytes = maxMemoryBytes
        self.maxInputBytes = maxInputBytes
        self.maxFrames = maxFrames
        self.failOn = failOn
    }

    /// Defaults for input from strangers: 100 megapixels decoded, 500 megapixels gone through,
    /// 512 MiB of decoding memory, 100 MiB of input, 1,000 frames, and failure on any decoder error
    /// or truncation (warnings pass, as many real files carry them). Within these, no input takes
    /// more than about 1 GB of peak memory to decode or thumbnail.
    public static let untrusted = DecodingLimits(
        maxPixels: 100_000_000, maxSourcePixels: 500_000_000, maxMemoryBytes: 512 << 20,
        maxInputBytes: 100 << 20, maxFrames: 1_000, failOn: .error)

    /// No budgets and libvips' own leniency: for files you made yourself.
    public static let unlimited = DecodingLimits(
        maxPixels: .max, maxSourcePixels: .max, maxMemoryBytes: .max, maxInputBytes: .max,
        maxFrames: .max, failOn: .none)

    func checkBytes(_ count: Int) throws(ImagingError) {
        if count > maxInputBytes {
            throw ImagingError(.limitExceeded, "input is \(count) bytes, over the limit of \(maxInputBytes)")
        }
    }

    /// Refuses `format` when it is an opt-in kind not in `allowedInputs`.
    func checkAllowed(_ format: ImageFormat) throws(ImagingError) {
        guard let kind = InputKinds.of(format), !allowedInputs.contains(kind) else { return }
        throw ImagingError(.unsupportedFormat, "\(format.rawValue.uppercased()) input is not allowed here", code: .inputNotAllowed(kind))
    }

    /// How many of an animation's `count` frames are decoded: the first `maxFrames` (at least one).
    public func keptFrames(_ count: Int) -> Int { max(1, min(count, maxFrames)) }

    /// Refuses an animation whose frames are over `maxAnimationFramePixels` each.
    func checkAnimationFrame(_ size: PixelSize) throws(ImagingError) {
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        if overflow || pixels > maxAnimationFramePixels {
            throw ImagingError(
                .limitExceeded, "the animation's frames are \(size.width)x\(size.height), over the limit of \(maxAnimationFramePixels) pixels a frame")
        }
    }

    /// Refuses a decode whose cost is over any budget, naming what it would cost.
    func check(_ cost: DecodingCost) throws(ImagingError) {
        if cost.sourcePixels > maxSourcePixels {
            throw ImagingError(
                .limitExceeded,
                "\(cost.what): decoding goes through \(cost.sourcePixels.counted) pixels, over the limit of \(maxSourcePixels.counted)")
        }
        if cost.decodedPixels > maxPixels {
            throw ImagingError(
                .limitExceeded,
                "\(cost.what): decoding makes \(cost.decodedPixels.counted) pixels, over the limit of \(maxPixels.counted)")
        }
        if cost.memoryBytes > maxMemoryBytes {
            throw ImagingError(
                .limitExceeded,
                "\(cost.what): decoding needs \(cost.memoryBytes.megabytes) of memory\(cost.memoryNote), over the limit of \(maxMemoryBytes.megabytes)")
        }
    }
}

extension Int {
    /// `1234567` as "1234567", `.max` (a saturated count) as "too many".
    var counted: String { self == .max ? "too many" : String(self) }

    /// Bytes as whole megabytes (10^6), e.g. "537 MB".
    var megabytes: String { self == .max ? "too many bytes" : "\((self + 500_000) / 1_000_000) MB" }
}
