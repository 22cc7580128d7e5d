internal import CVignetteImageShims
internal import CVignetteVips

/// Which frames of an animated input (GIF, WebP) a thumbnail keeps.
public enum FrameSelection: String, Sendable, Hashable, Codable, CaseIterable {
    /// The first frame only: a still image, as for any other input.
    case first
    /// Every frame, each resized the same way, with its delay and the loop count.
    case all
}

/// An animation: frames of one size, each shown for its delay, the whole played `loopCount` times.
///
/// Frames are `Image`s (see `Image` for why they may be shared across threads); libvips holds an
/// animation as one tall image of frames stacked top to bottom with `page-height`, `delay` (ms)
/// and `loop` metadata, which is how it is read (`vips_image_new_from_source` with `n=-1`) and,
/// for GIF, written (`vips_arrayjoin`, then `vips_gifsave_buffer`).
public struct Animation: Sendable {
    /// The frames, in order, all the same size.
    public let frames: [Image]
    /// How long each frame shows, in milliseconds; as many as there are frames.
    public let delays: [Int]
    /// How many times the animation plays; 0 means forever (GIF's and WebP's convention).
    public let loopCount: Int

    /// An animation of `frames` (at least one, all the same size and number of bands), each shown
    /// for the matching entry of `delays` (milliseconds, 0 or more), played `loopCount` times
    /// (0 = forever). Throws `.invalidArgument` when these do not hold.
    public init(frames: [Image], delays: [Int], loopCount: Int) throws(ImagingError) {
        guard let first = frames.first else { throw ImagingError(.invalidArgument, "an animation needs at least one frame") }
        guard delays.count == frames.count else {
            throw ImagingError(.invalidArgument, "an animation of \(frames.count) frames needs \(frames.count) delays, got \(delays.count)")
        }
        guard delays.allSatisfy({ $0 >= 0 }), loopCount >= 0 else {
            throw ImagingError(.invalidArgument, "delays and the loop count must not be negative")
        }
        for (index, frame) in frames.enumerated()
        where frame.width != first.width || frame.height != first.height || frame.bands != first.bands {
            throw ImagingError(
                .invalidArgument,
                "frame \(index) is \(frame.width)x\(frame.height)x\(frame.bands), frame 0 is \(first.width)x\(first.height)x\(first.bands)")
        }
        self.frames = frames
        self.delays = delays
        self.loopCount = loopCount
    }

    /// Width of every frame.
    public var width: Int { frames[0].width }
    /// Height of every frame.
    public var height: Int { frames[0].height }
    /// Number of frames.
    public var frameCount: Int { frames.count }
    /// The time one play takes: the sum of the delays, in milliseconds.
    public var durationMilliseconds: Int { delays.reduce(0, +) }

    /// Whether inputs of `format` are read as animations when they have more than one frame:
    /// GIF and WebP (libvips also pages TIFF, PDF and HEIF files, which are not animations).
    public static func isAnimatable(_ format: ImageFormat) -> Bool {
        format == .gif || format == .webp
    }
}

/// What an animated file's header says about its animation, read without decoding pixels.
public struct AnimationInfo: Sendable, Hashable, Codable {
    /// Number of frames.
    public var frameCount: Int
    /// How many times it plays; 0 means forever.
    public var loopCount: Int
    /// How long each frame shows, in milliseconds.
    public var delays: [Int]
    /// The sum of the delays, in milliseconds.
    public var durationMilliseconds: Int { delays.reduce(0, +) }
}

extension Animation {
    /// Splits a strip of frames loaded with `n=-1` (libvips' layout: frames stacked top to bottom,
    /// `page-height` tall each) into its frames, with the strip's `delay` and `loop` metadata.
    init(strip: Image) throws(ImagingError) {
        let timing = strip.animationTiming
        let frameHeight = timing.frameHeight
        let count = timing.frameCount
        var frames: [Image] = []
        frames.reserveCapacity(count)
        for index in 0..<count {
            frames.append(try strip.cropped(x: 0, y: index * frameHeight, width: strip.width, height: frameHeight))
        }
        try self.init(frames: frames, delays: timing.delays, loopCount: timing.loopCount)
    }

    /// The frames joined into one strip (`vips_arrayjoin`) carrying `page-height`, `n-pages`,
    /// `delay` and `loop`, as libvips' savers expect an animation.
    func strip() throws(ImagingError) -> Image {
        let pointers: [UnsafeMutablePointer<VipsImage>?] = frames.map { $0.pointer }
        var joined: UnsafeMutablePointer<VipsImage>?
        let status = pointers.withUnsafeBufferPointer { buffer in
            vgn_join_frames(UnsafeMutablePointer(mutating: buffer.baseAddress), Int32(buffer.count), &joined)
        }
        guard status == 0, let joined else { throw VipsErrors.operationError("vips_arrayjoin") }
        let strip = Image(owning: joined)
        let delays = self.delays.map { Int32(clamping: $0) }
        let (height, count, loop) = (Int32(height), Int32(frames.count), Int32(clamping: loopCount))
        return try withExtendedLifetime(frames) { () throws(ImagingError) -> Image in
            try strip.apply("vips_copy") { input, output in
                delays.withUnsafeBufferPointer { vgn_copy_with_animation(input, output, height, $0.baseAddress, count, loop) }
            }
        }
    }
}

extension Image {
    /// The animation metadata of an image loaded with `n=-1`: `page-height`
    /// (`vips_image_get_page_height`, the whole height when it does not divide it), `delay` (ms,
    /// 100 for frames it does not cover) and `loop` (0 when absent).
    var animationTiming: (frameHeight: Int, frameCount: Int, delays: [Int], loopCount: Int) {
        let frameHeight = max(1, Int(vips_image_get_page_height(pointer)))
        let count = max(1, height / frameHeight)
        var delays: [Int] = []
        if vips_image_get_typeof(pointer, "delay") != 0 {
            var values: UnsafeMutablePointer<Int32>?
            var n: Int32 = 0
            if vips_image_get_array_int(pointer, "delay", &values, &n) == 0, let values {
                delays = (0..<Int(max(0, n))).map { Int(values[$0]) }
            } else {
                vips_error_clear()
            }
        }
        delays = (0..<count).map { $0 < delays.count ? max(0, delays[$0]) : 100 }
        var loop: Int32 = 0
        if vips_image_get_typeof(pointer, "loop") != 0, vips_image_get_int(pointer, "loop", &loop) != 0 {
            vips_error_clear()
            loop = 0
        }
        return (frameHeight, count, delays, max(0, Int(loop)))
    }
}
