#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// An animated thumbnail: every frame resized the same way, with the source's delays and loop count.
public struct AnimatedThumbnail: Sendable {
    /// The frames, in memory, each the thumbnail's size.
    public let animation: Animation
    /// What the source's header said.
    public let source: ImageInfo
}

extension Thumbnailer {
    /// The thumbnail of every frame of an animated GIF or WebP, with the source's frame delays and
    /// loop count.
    ///
    /// The first `limits.maxFrames` frames (those past it are dropped, as imgproxy drops them) are
    /// decoded by libvips' loader in one pass (`n`: a strip of frames composed on the canvas),
    /// checked first against `limits`: one frame's pixels against `maxAnimationFramePixels`, and
    /// the decode of every frame at full canvas size (frames × pixels, see `DecodingCost`). Each
    /// frame is then resized to the box (`vips_resize`), oriented, cropped and blurred as `options`
    /// say, the same way for all: one crop window for every frame, an attention crop's placed on
    /// the first frame (`Image.attentionFocus(_:)`), the frame a still of the animation shows.
    /// An input with one frame, or of a format that has no animation, gives a one-frame animation
    /// of `thumbnail(_:)`. `options.method` and `useEmbeddedThumbnail` do not apply to animations.
    public func animatedThumbnail(_ data: Data, cancellation: ImagingCancellation? = nil) throws(ImagingError) -> AnimatedThumbnail {
        try options.validate()
        let source = try LoadedSource(data: data, limits: limits)
        let header = try source.load(failOn: limits.failOn)
        let info = ImageInfo(source: source, header: header)
        guard info.isAnimated, limits.keptFrames(header.pageCount) > 1 else {
            let still = try thumbnail(data, cancellation: cancellation)
            return AnimatedThumbnail(animation: try Animation(frames: [still.image], delays: [0], loopCount: 0), source: still.source)
        }

        let orientation = options.autoOrient ? header.orientation : 1
        let frameSize = PixelSize(width: header.width, height: header.height)
        let geometry = ThumbnailGeometry(source: frameSize.oriented(orientation), options: options)
        let frames = limits.keptFrames(header.pageCount)
        try limits.checkAnimationFrame(frameSize)
        try limits.check(.of(source: source, header: header, decoded: frameSize, frames: frames))
        let resultStrip = PixelSize(width: geometry.resized.width, height: Int.saturating(geometry.resized.height, frames))
        try limits.check(.ofResult(resultStrip, bands: max(3, header.bands)))

        let decoded = try Animation(strip: source.frameStrip(frames, failOn: limits.failOn, cancellation: cancellation))
        guard decoded.height == frameSize.height, decoded.width == frameSize.width else {
            throw ImagingError(
                .corruptData,
                "the frames decoded are \(decoded.width)x\(decoded.height), the header says \(frameSize)")
        }
        var resized: [Image] = []
        resized.reserveCapacity(decoded.frameCount)
        var shared = self
        for frame in decoded.frames {
            if cancellation?.isCancelled == true { throw ImagingError(.cancelled, "cancelled between frames") }
            if resized.isEmpty { shared.options = try placedOnFirstFrame(frame, geometry: geometry, orientation: orientation) }
            resized.append(try shared.thumbnailFrame(frame, geometry: geometry, orientation: orientation))
        }
        let animation = try Animation(frames: resized, delays: decoded.delays, loopCount: decoded.loopCount)
        // One evaluation for all frames: the strip, computed into memory, then split again.
        let materialized = try Animation(strip: animation.strip().materialized(cancellation: cancellation))
        return AnimatedThumbnail(animation: materialized, source: info)
    }

    /// The thumbnail of an animated GIF or WebP encoded as `encoding`: animated WebP
    /// (`WebPAnimEncoder`) or animated GIF (`vips_gifsave_buffer`) keep every frame; other formats
    /// get the first frame. See `animatedThumbnail(_:cancellation:)` and
    /// `ImageEncoder.encode(_:as:limits:cancellation:)` for animations.
    public func encodedAnimatedThumbnail(
        _ data: Data, as encoding: EncodingFormat, cancellation: ImagingCancellation? = nil
    ) throws(ImagingError) -> (data: Data, thumbnail: AnimatedThumbnail) {
        let thumbnail = try animatedThumbnail(data, cancellation: cancellation)
        return (try ImageEncoder.encode(thumbnail.animation, as: encoding, limits: limits, cancellation: cancellation), thumbnail)
    }

    /// `options` with an attention crop placed once, on `frame` (the first) resized and oriented as
    /// every frame is: a focus point that gives `vips_smartcrop`'s window (`Image.attentionFocus`),
    /// so that every frame is cut by the same window. Other options come back as they are.
    private func placedOnFirstFrame(_ frame: Image, geometry: ThumbnailGeometry, orientation: Int) throws(ImagingError) -> ThumbnailOptions {
        var placed = options
        guard geometry.crops, options.crop.withoutFaces == .attention, options.cropPosition?.isFocusPoint != true else { return placed }
        let target = geometry.resized.oriented(orientation)
        var image = try frame.convertedToSRGB().resized(toWidth: target.width, height: target.height, kernel: options.kernel)
        if orientation != 1 {
            image = try image.apply("vips_copy") { vgn_copy_with_orientation($0, $1, Int32(orientation)) }.autoOriented()
        }
        placed.cropPosition = try image.materialized().attentionFocus(geometry.output)
        return placed
    }

    /// One frame brought to the thumbnail: 8-bit sRGB (through its ICC profile when it has one:
    /// animations are always converted, `keepProfile` or not), resized to the box, oriented, cropped, blurred.
    private func thumbnailFrame(_ frame: Image, geometry: ThumbnailGeometry, orientation: Int) throws(ImagingError) -> Image {
        let target = geometry.resized.oriented(orientation)
        var image = try frame.convertedToSRGB().resized(toWidth: target.width, height: target.height, kernel: options.kernel)
        if orientation != 1 {
            image = try image.apply("vips_copy") { vgn_copy_with_orientation($0, $1, Int32(orientation)) }.autoOriented()
        }
        image = try image.croppedToResult(geometry, options: options)
        return try image.blurred(sigma: options.blurSigma).recording(dprScale: geometry.dprScale)
    }
}

extension ImageDecoder {
    /// Every frame of an animated GIF or WebP up to `limits.maxFrames` (those past it are
    /// dropped, as imgproxy drops them), decoded into memory by libvips' loader in one pass (`n`),
    /// with the frame delays and loop count; a one-frame animation for other images. One frame's
    /// pixels (`maxAnimationFramePixels`) and the cost of every frame at canvas size are checked first.
    public func decodeAnimation(_ data: Data, cancellation: ImagingCancellation? = nil) throws(ImagingError) -> Animation {
        let source = try LoadedSource(data: data, limits: limits)
        let header = try source.load(failOn: limits.failOn)
        let frames = limits.keptFrames(header.pageCount)
        guard ImageInfo(source: source, header: header).isAnimated, frames > 1 else {
            return try Animation(frames: [decode(data, cancellation: cancellation)], delays: [0], loopCount: 0)
        }
        let frameSize = PixelSize(width: header.width, height: header.height)
        try limits.checkAnimationFrame(frameSize)
        try limits.check(.of(source: source, header: header, decoded: frameSize, frames: frames))
        return try Animation(strip: source.frameStrip(frames, failOn: limits.failOn, cancellation: cancellation))
    }

    /// The frame count, loop count and frame delays of an animated GIF or WebP, from its header
    /// (libvips' loader with `n=-1`, no pixels decoded), every frame the file has (a result keeps
    /// the first `maxFrames`); nil for an input that is not an animation.
    public func animationInfo(_ data: Data) throws(ImagingError) -> AnimationInfo? {
        let source = try LoadedSource(data: data, limits: limits)
        let header = try source.load(failOn: limits.failOn)
        guard ImageInfo(source: source, header: header).isAnimated else { return nil }
        let timing = try source.load(failOn: limits.failOn, extra: ["n=-1"]).animationTiming
        return AnimationInfo(frameCount: timing.frameCount, loopCount: timing.loopCount, delays: timing.delays)
    }
}

extension Animation {
    /// Whether bytes beginning with `prefix` (at least 21 bytes of them) may be an animation: a GIF
    /// (any, its frames are counted only by decoding), or a WebP whose `VP8X` header sets the
    /// animation flag. A cheap look before asking libvips.
    public static func mightBeAnimated(prefix: Data) -> Bool {
        let bytes = [UInt8](prefix.prefix(21))
        if bytes.starts(with: Array("GIF8".utf8)) { return true }
        guard bytes.count == 21, bytes.starts(with: Array("RIFF".utf8)), bytes[8..<16].elementsEqual("WEBPVP8X".utf8) else {
            return false
        }
        return bytes[20] & 0x02 != 0
    }
}

extension LoadedSource {
    /// The first `frames` frames, decoded into memory by libvips' loader in one pass (`n=`): a
    /// strip of frames composed on the canvas. A failure is told apart as a lenient decode sees
    /// it: `.truncatedData` when one gets through, `.corruptData` when none does.
    func frameStrip(_ frames: Int, failOn: FailOn, cancellation: ImagingCancellation?) throws(ImagingError) -> Image {
        do {
            return try load(failOn: failOn, extra: ["n=\(frames)"]).materialized(cancellation: cancellation)
        } catch where (error.kind == .corruptData || error.kind == .truncatedData) && failOn != .none {
            let decodable = (try? load(failOn: .none, extra: ["n=\(frames)"]).materialized()) != nil
            throw ImagingError(decodable ? .truncatedData : .corruptData, error.message)
        }
    }
}
