#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips
import VignetteSupport

/// Makes thumbnails: header first, limits checked, then the cheapest decode that covers the box.
///
/// Routes, in order of preference:
/// 1. an embedded thumbnail at least as big as the result (HEIF thumbnail items via libheif, the JPEG
///    EXIF thumbnail via libvips' "jpeg-thumbnail-data");
/// 2. shrink-on-load chosen by Vignette (JPEG `shrink`, WebP `scale` load options), then a resize
///    with `ThumbnailOptions.kernel`;
/// 3. a full decode and a resize for formats without shrink-on-load;
/// or libvips' own `vips_thumbnail` when `ThumbnailOptions.method` is `.vipsThumbnail`.
///
/// The resize of routes 1-3 is Vignette's own Lanczos-3 reducer (`LanczosReducer`, AVX2 when the
/// CPU has it) when the kernel is Lanczos 3 and the decoded image is 8-bit sRGB, grey or CMYK,
/// reduced, and small enough to hold in memory; `vips_resize` otherwise. 8-bit CMYK is converted to
/// sRGB after a reduction, at the thumbnail's size.
public struct Thumbnailer: Sendable {
    /// What to make: the box, fit, crop, orientation, kernel, route, blur.
    public var options: ThumbnailOptions
    /// The budget each source is checked against from its header.
    public var limits: DecodingLimits
    /// Who resizes: `.automatic` is `LanczosReducer` where it applies; `.libvips` is always
    /// `vips_resize` (what Vignette did before its own reducer; for comparisons in tests).
    var resampler = Resampler.automatic
    /// Whether the planar route decodes JPEGs with Vignette's own decoders (`JPEGDC`: at 1/8 from
    /// their DC coefficients, at 1/4 and 1/2 through the reduced-scale decoders) where it can:
    /// `ImagingRuntime.usesOwnJPEGDecoders` when made, or set here, for comparisons.
    var jpegFastDC = ImagingRuntime.usesOwnJPEGDecoders
    /// Whether the 1/4 and 1/2 decodes take Vignette's reduced-scale decoders (with `jpegFastDC`):
    /// `ImagingRuntime.usesOwnScaledJPEGDecoder` when made, or set here, for comparisons.
    var jpegOwnScaled = ImagingRuntime.usesOwnScaledJPEGDecoder

    enum Resampler: Sendable {
        case automatic, libvips
    }

    /// A thumbnailer making `options` within `limits`.
    public init(options: ThumbnailOptions, limits: DecodingLimits = .untrusted) {
        self.options = options
        self.options.crop = options.crop.withoutFaces
        self.limits = limits
    }

    /// The thumbnail of `data`, computed and held in memory.
    public func thumbnail(_ data: Data) throws(ImagingError) -> Thumbnail {
        try thumbnail(data, cancellation: nil)
    }

    /// `thumbnail(_:)`, stopped part-way when `cancellation` is cancelled (`ImagingError.Kind.cancelled`).
    public func thumbnail(_ data: Data, cancellation: ImagingCancellation?) throws(ImagingError) -> Thumbnail {
        let cancellation = limits.renderDeadline(cancellation, for: data)
        let lazy = try lazyThumbnail(data, cancellation: cancellation)
        do {
            return Thumbnail(image: try lazy.image.materialized(cancellation: cancellation), source: lazy.source, route: lazy.route)
        } catch {
            throw classified(error, data: data)
        }
    }

    /// The thumbnail of the file at `path`; see `thumbnail(_:)`.
    public func thumbnail(fileAt path: String) throws(ImagingError) -> Thumbnail {
        try thumbnail(InputFile.read(path, limits: limits))
    }

    /// The thumbnail of `data` encoded as `encoding`, streamed from decoder to encoder without
    /// holding the thumbnail in memory in between.
    public func encodedThumbnail(_ data: Data, as encoding: EncodingFormat) throws(ImagingError) -> (data: Data, thumbnail: Thumbnail) {
        try encodedThumbnail(data) { _ in encoding }
    }

    /// The thumbnail of `data`, encoded in the format `choose` picks once the thumbnail's shape is
    /// known (for instance PNG when it has alpha, JPEG otherwise).
    /// With `cancellation`, the work stops at libvips' next tile once it is cancelled
    /// (`ImagingError.Kind.cancelled`).
    public func encodedThumbnail(
        _ data: Data, cancellation: ImagingCancellation? = nil, as choose: (Image) -> EncodingFormat
    ) throws(ImagingError) -> (data: Data, thumbnail: Thumbnail) {
        // With Vignette's own reducer the decode happens here, under the same cancellation.
        let cancellation = limits.renderDeadline(cancellation, for: data)
        let lazy = try lazyThumbnail(data, cancellation: cancellation) { choose($0) }
        do {
            let format = choose(lazy.image)
            if let planes = lazy.planes {
                try limits.check(.ofEncoding(lazy.image, as: format))
                if let encoded = try Self.encodedFromPlanes(planes, as: format) { return (encoded, lazy) }
            }
            return (try ImageEncoder.encode(lazy.image, as: format, limits: limits, cancellation: cancellation), lazy)
        } catch {
            throw classified(error, data: data)
        }
    }

    /// Tells truncated from corrupt data after pixels failed to decode, by decoding again with
    /// `FailOn.none`: libvips' error buffer is shared by the whole process, so under concurrency
    /// its message cannot be trusted to say which it was (see `VipsErrors`).
    private func classified(_ error: ImagingError, data: Data) -> ImagingError {
        guard error.kind == .corruptData || error.kind == .truncatedData, limits.failOn != .none else { return error }
        var lenient = self
        lenient.limits.failOn = .none
        let decodable = (try? lenient.lazyThumbnail(data).image.materialized()) != nil
        return ImagingError(decodable ? .truncatedData : .corruptData, error.message)
    }

    /// The thumbnail as a libvips recipe: pixels are decoded when it is encoded or materialised.
    /// With `LanczosReducer`, the decode happens here already (errors classified as by `thumbnail`).
    /// `encodingHint`, the encoding choice of `encodedThumbnail`, lets the planar JPEG route make
    /// planes ready for that encoder.
    func lazyThumbnail(
        _ data: Data, cancellation: ImagingCancellation? = nil, encodingHint: (Image) -> EncodingFormat? = { _ in nil }
    ) throws(ImagingError) -> Thumbnail {
        try options.validate()
        if let video = try VideoInput.poster(data, at: options.videoSecond, limits: limits, cancellation: cancellation) {
            // A video's poster, decoded whole and upright by FFmpeg, takes the full-decode route.
            let geometry = ThumbnailGeometry(source: PixelSize(width: video.image.width, height: video.image.height), options: options)
            try limits.check(.ofResult(geometry.resized, bands: video.image.bands))
            let finished = try finish(video.image, geometry: geometry, orientation: 1, data: data, cancellation: cancellation)
            return Thumbnail(image: finished, source: video.info, route: .fullDecode)
        }
        let source = try LoadedSource(data: data, limits: limits, page: options.page, largeEnough: options.needsNoEnlarging(of:))
        if source.pointer == nil, options.method == .vipsThumbnail {
            // A bitmap Vignette decoded itself (BMP, ICO) has no libvips source for vips_thumbnail:
            // Vignette's own route resizes it.
            var own = self
            own.options.method = .shrinkOnLoad
            return try own.lazyThumbnail(source: source, cancellation: cancellation, encodingHint: encodingHint)
        }
        if source.format.isVector, !options.allowUpscaling || options.method != .shrinkOnLoad {
            // A vector source is drawn at the size of the box, larger or smaller (as imgproxy
            // does), at the scale Vignette plans and checks (vips_thumbnail's may fall outside
            // the loaders' range, where libvips draws the nominal size instead).
            var drawn = self
            drawn.options.allowUpscaling = true
            drawn.options.method = .shrinkOnLoad
            return try drawn.lazyThumbnail(source: source, cancellation: cancellation, encodingHint: encodingHint)
        }
        return try lazyThumbnail(source: source, cancellation: cancellation, encodingHint: encodingHint)
    }

    /// `lazyThumbnail(_:cancellation:encodingHint:)` of a source already found.
    private func lazyThumbnail(
        source: LoadedSource, cancellation: ImagingCancellation?, encodingHint: (Image) -> EncodingFormat?
    ) throws(ImagingError) -> Thumbnail {
        // A sanitised SVG's own bytes: what a second decode reads.
        let data = source.data
        let header = try source.load(failOn: limits.failOn)
        let orientation = options.autoOrient ? header.orientation : 1
        let stored = PixelSize(width: header.width, height: header.height)
        let geometry = ThumbnailGeometry(source: stored.oriented(orientation), options: options)
        let info = ImageInfo(source: source, header: header)

        // The decode this route will do, checked against the budget before anything else: the
        // same verdict whichever route ends up making the thumbnail.
        let target = geometry.resized.oriented(orientation)
        let plan = options.method == .vipsThumbnail
            ? DecodePlan.vipsThumbnail(target, source, header) : DecodePlan.covering(target, source, header)
        try limits.check(plan.cost)
        // Upscaling can ask for a result far bigger than anything decoded: it counts too.
        try limits.check(.ofResult(geometry.resized, bands: max(3, header.bands)))

        if options.useEmbeddedThumbnail, options.method == .shrinkOnLoad,
            let embedded = try embeddedThumbnail(source: source, header: header, geometry: geometry, orientation: orientation)
        {
            var image = try embedded.decode()
            if embedded.kind == .exif, orientation != 1 {
                image = try image.apply("vips_copy") { vgn_copy_with_orientation($0, $1, Int32(orientation)) }
            }
            let finished = try finish(
                image, geometry: geometry, orientation: embedded.kind == .exif ? orientation : 1,
                data: data, cancellation: cancellation, sourceProfile: Self.profileInherited(by: image, from: header))
            return Thumbnail(image: finished, source: info, route: .embeddedThumbnail(kind: embedded.kind.rawValue))
        }
        if options.method == .vipsThumbnail {
            let image = try vipsThumbnail(source: source, geometry: geometry, cmyk: header.interpretation == VIPS_INTERPRETATION_CMYK)
            return Thumbnail(image: image, source: info, route: .vipsThumbnail)
        }
        let route = plan.loadOptions.isEmpty ? ThumbnailRoute.fullDecode : .shrinkOnLoad(scale: plan.scale)
        if let planar = try planarJPEGThumbnail(
            data: data, source: source, header: header, plan: plan, geometry: geometry, orientation: orientation,
            cancellation: cancellation, encodingHint: encodingHint)
        {
            return Thumbnail(image: planar.image, source: info, route: route, planes: planar.planes, decodedAsPlanes: true)
        }
        let image = plan.loadOptions.isEmpty ? header : try source.load(failOn: limits.failOn, extra: plan.loadOptions)
        let finished = try finish(image, geometry: geometry, orientation: orientation, data: data, cancellation: cancellation)
        return Thumbnail(image: finished, source: info, route: route)
    }

    /// To 8-bit, resize, orient, crop, then colour as `options.keepProfile` says (`colourManaged`).
    /// `sourceProfile` is the profile of the image an embedded thumbnail stands for, used when the
    /// thumbnail has none of its own.
    private func finish(
        _ decoded: Image, geometry: ThumbnailGeometry, orientation: Int, data: Data, cancellation: ImagingCancellation?,
        sourceProfile: Data? = nil
    ) throws(ImagingError) -> Image {
        let target = geometry.resized.oriented(orientation)
        // 8-bit CMYK is reduced in CMYK and converted to sRGB at the thumbnail's size
        // (`Image+CMYKThumbnail`); everything else is made 8-bit sRGB or grey first, as before.
        let cmykAfterResize = decoded.isReducibleCMYK(to: target)
        var image = cmykAfterResize ? decoded : try decoded.standardizedToSRGB8()
        // Read before the resize: Vignette's own reducer makes an image without metadata. A CMYK
        // image's profile is used up by its conversion to sRGB below: none is left, as before.
        let profile = cmykAfterResize ? sourceProfile : image.iccProfile ?? sourceProfile
        if resampler == .automatic, options.kernel == .lanczos3,
            LanczosReducer.applies(to: image, width: target.width, height: target.height)
        {
            // The decode runs now, into memory, for the reducer: its errors are told apart here.
            do {
                image = try LanczosReducer.resize(image, toWidth: target.width, height: target.height, cancellation: cancellation)
            } catch {
                throw error.kind == .cancelled ? error : classified(error, data: data)
            }
        } else {
            image = try image.resized(toWidth: target.width, height: target.height, kernel: options.kernel)
        }
        if cmykAfterResize {
            // Orienting, cropping and blurring then see sRGB, as before.
            do {
                image = try image.cmykThumbnailInSRGB(cancellation: cancellation)
            } catch {
                throw error.kind == .cancelled ? error : classified(error, data: data)
            }
        }
        let resized = try finishResized(image, geometry: geometry, orientation: orientation)
        // Converting with a kept littleCMS transform computes the thumbnail now: its decode's
        // errors are told apart here, as the reducer's are.
        do {
            return try colourManaged(resized, profile: profile, cancellation: cancellation).recording(dprScale: geometry.dprScale)
        } catch {
            throw error.kind == .cancelled ? error : classified(error, data: data)
        }
    }

    /// Orient, crop and blur a thumbnail already resized to `geometry.resized` (in stored orientation).
    func finishResized(_ resized: Image, geometry: ThumbnailGeometry, orientation: Int) throws(ImagingError) -> Image {
        var image = resized
        // Rotating and attention-cropping read the image out of order, which a sequentially decoded
        // source cannot do: compute the (already small) resized pixels first.
        if orientation != 1 || (geometry.fit == .cover && options.crop == .attention) {
            image = try image.materialized()
        }
        if orientation != 1 { image = try image.autoOriented() }
        image = try image.croppedToResult(geometry, options: options)
        return try image.blurred(sigma: options.blurSigma)
    }

    /// The smallest embedded thumbnail that covers the resized size and has the image's shape.
    private func embeddedThumbnail(
        source: LoadedSource, header: Image, geometry: ThumbnailGeometry, orientation: Int
    ) throws(ImagingError) -> EmbeddedThumbnail? {
        let full = PixelSize(width: header.width, height: header.height)
        switch source.format {
        case .heic:
            // libheif applies the items' transformations, so thumbnails come out upright, like the image.
            let thumbnails = (try? EmbeddedThumbnail.heif(in: source.data, limits: limits)) ?? []
            return thumbnails.first {
                $0.size.covers(geometry.resized) && ThumbnailGeometry.sameAspect($0.size, full)
            }
        case .jpeg:
            guard let exif = EmbeddedThumbnail.exif(of: header, limits: limits) else { return nil }
            let target = geometry.resized.oriented(orientation)
            return exif.size.covers(target) && ThumbnailGeometry.sameAspect(exif.size, full) ? exif : nil
        default:
            return nil
        }
    }

    /// libvips' `vips_thumbnail_source` (its decode was checked by `DecodePlan.vipsThumbnail`),
    /// brought to the contract's exact size: libvips rounds differently on lopsided images, and
    /// its forced size (`fill`) would upscale. Colour is Vignette's, as on the other routes
    /// (`colourManaged`): libvips 8.14 converts CMYK to sRGB itself but leaves the CMYK profile on
    /// the result, so that profile is taken off a `cmyk` source's thumbnail.
    private func vipsThumbnail(source: LoadedSource, geometry: ThumbnailGeometry, cmyk: Bool) throws(ImagingError) -> Image {
        var size: VipsSize
        switch (geometry.fit, options.allowUpscaling) {
        case (.fill, _): size = VIPS_SIZE_FORCE
        case (_, true): size = VIPS_SIZE_BOTH
        case (_, false): size = VIPS_SIZE_DOWN
        }
        // An edge or corner crop: vips_thumbnail resizes to cover the box, and the window is cut after.
        let edgeCrop = geometry.fit == .cover && options.crop != .centre && options.crop != .attention
        // fill asks for the resized size itself (no upscaling when it is not allowed).
        let box = geometry.fit == .cover && !edgeCrop ? geometry.output : geometry.resized
        if edgeCrop { size = VIPS_SIZE_FORCE }
        let crop: VipsInteresting
        switch (geometry.fit, options.crop) {
        case (.cover, .centre): crop = VIPS_INTERESTING_CENTRE
        case (.cover, .attention): crop = VIPS_INTERESTING_ATTENTION
        default: crop = VIPS_INTERESTING_NONE
        }
        guard let pointer = source.pointer else { throw ImagingError(.operationFailed, "vips_thumbnail_source: the source has no libvips loader") }
        var out: UnsafeMutablePointer<VipsImage>?
        let status = vgn_thumbnail_source(
            pointer, &out, Int32(box.width), Int32(box.height), Int32(size.rawValue),
            Int32(crop.rawValue), options.autoOrient ? 0 : 1, "fail_on=\(limits.failOn.rawValue)")
        guard status == 0, let out else {
            // The header was read already, so the format is known: a failure here is damage.
            let error = VipsErrors.decodingError()
            throw error.kind == .unsupportedFormat ? ImagingError(.corruptData, error.message) : error
        }
        var image = try Image(owning: out).withoutUnusableProfile().standardizedToSRGB8()
        if cmyk { image = try image.withoutProfile() }
        let profile = image.iccProfile
        if edgeCrop {
            if image.width != geometry.resized.width || image.height != geometry.resized.height {
                image = try image.resized(toWidth: geometry.resized.width, height: geometry.resized.height, kernel: options.kernel)
            }
            image = try image.cropped(toWidth: geometry.output.width, height: geometry.output.height, anchor: options.crop)
        }
        if image.width != geometry.output.width || image.height != geometry.output.height {
            image = try image.resized(toWidth: geometry.output.width, height: geometry.output.height, kernel: options.kernel)
        }
        return try colourManaged(image.blurred(sigma: options.blurSigma), profile: profile).recording(dprScale: geometry.dprScale)
    }
}

extension Thumbnailer {
    /// The size the thumbnail of an image with this header will have, worked out from the header
    /// alone (orientation applied when `autoOrient` is on): for naming outputs before decoding.
    public func outputSize(for info: ImageInfo) -> PixelSize {
        var options = options
        if info.format.isVector { options.allowUpscaling = true }
        let orientation = options.autoOrient ? info.orientation : 1
        let source = PixelSize(width: info.width, height: info.height).oriented(orientation)
        return ThumbnailGeometry(source: source, options: options).output
    }

    /// The size of the whole result of an image with this header: the thumbnail (`outputSize(for:)`)
    /// extended and padded as `options.canvas` says, within `options.maxResultSide`, still in the
    /// thumbnail's orientation.
    public func resultSize(for info: ImageInfo) -> PixelSize {
        let orientation = options.autoOrient ? info.orientation : 1
        return resultSize(forUpright: PixelSize(width: info.width, height: info.height).oriented(orientation))
    }

    /// `resultSize(for:)` of a source whose size, once upright, is `source`.
    public func resultSize(forUpright source: PixelSize) -> PixelSize {
        ThumbnailGeometry(source: source, options: options).result
    }
}
