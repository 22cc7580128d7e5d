#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteTurboJPEG
internal import CVignetteVips

/// The planar JPEG route: a JPEG thumbnail made without libvips' decode, colour conversions or
/// demand-driven machinery. libjpeg-turbo decodes the file at the plan's DCT scale into
/// its own Y/Cb/Cr planes (`TurboJPEG.decodePlanes`), Vignette's Lanczos-3 reducer resizes each
/// plane (`YCbCrPlanes.resized`), and the planes become the thumbnail's RGB pixels in one
/// libjpeg-turbo pass at the thumbnail's size (`tjDecodeYUVPlanes`). When the thumbnail is going to
/// be written as a plain JPEG (`encodedThumbnail` asks its format choice up front), the chroma is
/// resampled straight to the JPEG's subsampling and the planes are encoded as they are
/// (`tjCompressFromYUVPlanes`): nothing goes through RGB on the way to the file. Lossy WebP and
/// 4:2:0 AVIF or HEIC, which code Y/Cb/Cr at 4:2:0 too, take the 4:2:0 planes the same way
/// (`WebPEncoder.encode(_:options:)` with the planes, `HEIFEncoder.encode(_:codec:options:)`).
///
/// Against the shrink-on-load route it skips, on sharp's task, the YCbCr → RGB conversion and
/// chroma upsampling of 1.5 MP, reading the chroma at luma resolution in the resize, the RGB →
/// YCbCr conversion before the encode, and the copy out of libvips' regions (Benchmarks/README.md,
/// "Profile").
///
/// It takes what it does exactly as the other routes would: baseline or progressive JPEGs in
/// Y/Cb/Cr or greyscale, Lanczos 3, a reduction. An ICC profile is handled as on every route, after
/// the resize (`Thumbnailer.colourManaged`): the RGB thumbnail is converted through it to sRGB, or
/// keeps it (`ThumbnailOptions.keepProfile`), and is encoded from RGB, since the planes, encoded by
/// libjpeg-turbo, would carry neither. Only a profile that means sRGB and is converted away (the
/// conversion would change nothing: `SRGBProfiles`) is dropped and leaves the planes to encode. A
/// chroma-subsampled JPEG decoded at a DCT scale takes it only when the thumbnail is written at
/// 4:2:0 (see the guard on `chromaSubsampled`).
/// Anything it cannot do — and
/// any decoding error or libjpeg warning (a truncated or damaged file), since TurboJPEG stops at the
/// first — falls back to the shrink-on-load route, which gives the canonical errors and `FailOn`
/// behaviour. Sources above `maximumSourcePixels` stay with libvips, whose decode can be cancelled
/// at every tile; this one is checked for cancellation before and after its one decode call.
extension Thumbnailer {
    /// The largest source (in pixels) the planar route decodes: a 40-MP JPEG decodes in about
    /// 0.2 s here, the longest a cancelled request waits for it.
    static let planarMaximumSourcePixels = 40_000_000

    /// The thumbnail made by the planar route, or nil when the route does not apply or the decode
    /// failed (the caller takes the shrink-on-load route then).
    func planarJPEGThumbnail(
        data: Data, source: LoadedSource, header: Image, plan: DecodePlan, geometry: ThumbnailGeometry, orientation: Int,
        cancellation: ImagingCancellation?, encodingHint: (Image) -> EncodingFormat?
    ) throws(ImagingError) -> (image: Image, planes: YCbCrPlanes?)? {
        let target = geometry.resized.oriented(orientation)
        guard resampler == .automatic, options.kernel == .lanczos3, source.format == .jpeg,
            vips_image_get_format(header.pointer) == VIPS_FORMAT_UCHAR,
            header.interpretation == VIPS_INTERPRETATION_sRGB && header.bands == 3
                || header.interpretation == VIPS_INTERPRETATION_B_W && header.bands == 1,
            header.width * header.height <= Self.planarMaximumSourcePixels,
            plan.scale > 0, let denominator = [1, 2, 4, 8].first(where: { abs(1 / Double($0) - plan.scale) < 1e-9 }),
            let jpeg = TurboJPEG.header(of: data), jpeg.isPlanar, jpeg.width == header.width, jpeg.height == header.height,
            // libjpeg-turbo 2.1.5's tjDecompressToYUVPlanes reads past its buffer for a 4:1:1 image at
            // most 8 pixels wide decoded at 1/8 (AddressSanitizer): such a sliver takes the libvips route.
            jpeg.subsampling != Int32(TJSAMP_411.rawValue) || jpeg.width > 32
        else { return nil }
        // The decoded size, each side rounded up as libjpeg does; the target must be a reduction
        // the reducer takes.
        let decodedWidth = (jpeg.width + denominator - 1) / denominator
        let decodedHeight = (jpeg.height + denominator - 1) / denominator
        guard target.width <= decodedWidth, target.height <= decodedHeight,
            Double(decodedWidth) / Double(target.width) <= LanczosReducer.maximumScale,
            Double(decodedHeight) / Double(target.height) <= LanczosReducer.maximumScale,
            decodedWidth * decodedHeight * 3 <= LanczosReducer.maximumInputBytes
        else { return nil }

        // The output's chroma: 4:2:0 when the thumbnail is going to be a JPEG that libvips would
        // write at 4:2:0, or a lossy WebP, AVIF or HEIC at 4:2:0 (asked of the encoding choice
        // with the header, which has the thumbnail's bands), 4:4:4 otherwise.
        let subsampling = encodingHint(header).flatMap(Self.planeSubsampling(for:))
        // At a DCT scale (1/2 and below) libjpeg decodes subsampled chroma at the luma's resolution
        // straight from the coefficients (a larger IDCT for chroma), which planes holding the
        // chroma at its stored resolution cannot match: such a decode is taken only for an output
        // written at 4:2:0 again, which keeps no more chroma than the planes hold. (gain-map.jpg's
        // thumbnail at 4:4:4 scored 42.3 dB against a reference resize this way, the RGB route 47.8.)
        let chromaSubsampled = jpeg.subsampling != Int32(TJSAMP_444.rawValue) && jpeg.subsampling != Int32(TJSAMP_GRAY.rawValue)
        guard denominator == 1 || !chromaSubsampled || subsampling == Int32(TJSAMP_420.rawValue) else { return nil }

        if cancellation?.isCancelled == true { throw ImagingError(.cancelled, "cancelled before decoding") }
        // At 1/8, from each block's DC alone where `JPEGDC` takes the file (a progressive one only
        // below `FailOn.warning`: see `JPEGDC`), at 1/4 and 1/2 from Vignette's reduced-scale
        // decoders (sequential and progressive files) when `jpegOwnScaled`; libjpeg-turbo otherwise.
        let fast = denominator > 1 && jpegFastDC && (denominator == 8 || jpegOwnScaled)
            ? JPEGDC.decodePlanes(data, header: jpeg, denominator: denominator, progressive: limits.failOn != .warning) : nil
        guard let decoded = fast ?? (try? TurboJPEG.decodePlanes(data, header: jpeg, denominator: denominator)) else { return nil }
        if cancellation?.isCancelled == true { throw ImagingError(.cancelled, "cancelled while decoding") }

        var planes = try decoded.resized(
            toWidth: target.width, height: target.height, subsampling: subsampling ?? Int32(TJSAMP_444.rawValue),
            threads: ImagingRuntime.threadsPerImage)
        // Turned upright as planes (a phone's portrait photo is stored sideways), so that they can
        // still be written as they are.
        var turn = orientation
        if orientation != 1, let upright = planes.oriented(orientation) {
            planes = upright
            turn = 1
        }
        let profile = profileToApply(of: header)
        let transform = fusedColourTransform(profile: profile, size: planes.width * planes.height)
        let resized = try finishResized(
            planes.image(withMetadataOf: header, turned: orientation == turn ? 1 : orientation, converting: transform),
            geometry: geometry, orientation: turn)
        let image: Image
        do {
            image = try colourManaged(resized, profile: transform == nil ? profile : nil, cancellation: cancellation)
                .recording(dprScale: geometry.dprScale)
        } catch {
            // The shrink-on-load route converts the same way and tells its errors apart.
            if error.kind == .cancelled { throw error }
            return nil
        }
        // The planes are the thumbnail only when nothing moved or changed its pixels since.
        let unchanged = turn == 1 && image.width == planes.width && image.height == planes.height
            && options.blurSigma == 0 && profile == nil
        return (image, unchanged ? planes : nil)
    }

    /// The ICC profile `colourManaged` applies to the planar thumbnail: `header`'s, except none
    /// when it has none, or when it is to be converted away (not `ThumbnailOptions.keepProfile`)
    /// and means sRGB (`SRGBProfiles`: the conversion would move no colour by more than 1), so
    /// that the planes can be written as they are.
    func profileToApply(of header: Image) -> Data? {
        guard vips_image_get_typeof(header.pointer, "icc-profile-data") != 0, let profile = header.iccProfile else { return nil }
        if !options.keepProfile, header.bands == 3, SRGBProfiles.isSRGB(profile) { return nil }
        return profile
    }

    /// The transform that `colourManaged` would convert the thumbnail with (`convertedWithKeptTransform`:
    /// `profile` to be converted away, a kept transform, at most `Image.keptTransformMaximumPixels`),
    /// for the planes to be converted as they become RGB (`YCbCrPlanes.image`), in the same buffer;
    /// nil when that does not apply, or when a blur comes between, whose result depends on the order.
    func fusedColourTransform(profile: Data?, size: Int) -> SRGBTransforms.Transform? {
        guard let profile, !options.keepProfile, options.blurSigma == 0, size <= Image.keptTransformMaximumPixels else {
            return nil
        }
        return SRGBTransforms.transform(from: profile, layout: .rgb)
    }

    /// The chroma subsampling `vips_jpegsave` writes for `format` when it is a JPEG the planes can
    /// be encoded as directly — baseline, standard Huffman tables, metadata stripped: 4:2:0 below
    /// quality 90, 4:4:4 from 90 — or nil.
    static func jpegSubsampling(for format: EncodingFormat) -> Int32? {
        guard case .jpeg(let options) = format, !options.progressive, !options.optimizeCoding, !options.keepMetadata,
            (1...100).contains(options.quality)
        else { return nil }
        return Int32(options.quality < 90 ? TJSAMP_420.rawValue : TJSAMP_444.rawValue)
    }

    /// The chroma subsampling the planes are made at for `format`: the JPEG's (`jpegSubsampling`);
    /// 4:2:0 for a lossy WebP (VP8 codes 4:2:0 only) and for a lossy AVIF or HEIC at 4:2:0, whose
    /// encoders then take the planes as they are; nil (4:4:4, the finest colour, for an encode
    /// from RGB) for anything else.
    static func planeSubsampling(for format: EncodingFormat) -> Int32? {
        switch format {
        case .jpeg: return jpegSubsampling(for: format)
        case .webp(let options) where !options.lossless: return Int32(TJSAMP_420.rawValue)
        case .avif(let options) where !options.lossless && options.chroma == .yuv420,
            .heic(let options) where !options.lossless && options.chroma == .yuv420:
            return Int32(TJSAMP_420.rawValue)
        default: return nil
        }
    }

    /// The thumbnail's planes encoded as they are, when `format` codes them at their subsampling:
    /// a JPEG that libvips would write from the RGB pixels at the planes' subsampling, or
    /// greyscale (libjpeg-turbo's `tjCompressFromYUVPlanes`); a lossy WebP from 4:2:0 or grey
    /// planes (libwebp's `WebPEncode` of a YUV picture); a lossy 4:2:0 AVIF or HEIC from 4:2:0
    /// planes (libheif's `heif_context_encode_image` of a YCbCr image). Nil otherwise, and the RGB
    /// image is encoded instead.
    static func encodedFromPlanes(_ planes: YCbCrPlanes, as format: EncodingFormat) throws(ImagingError) -> Data? {
        let at420 = planes.subsampling == Int32(TJSAMP_420.rawValue)
        switch format {
        case .jpeg(let options):
            guard let subsampling = jpegSubsampling(for: format), planes.isGrey || planes.subsampling == subsampling
            else { return nil }
            return try TurboJPEG.encode(planes, quality: options.quality)
        case .webp(let options):
            guard !options.lossless, planes.isGrey || at420 else { return nil }
            return try WebPEncoder.encode(planes, options: options)
        case .avif(let options):
            guard planeSubsampling(for: format) != nil, at420 else { return nil }
            return try HEIFEncoder.encode(planes, codec: .av1, options: options)
        case .heic(let options):
            guard planeSubsampling(for: format) != nil, at420 else { return nil }
            return try HEIFEncoder.encode(planes, codec: .hevc, options: options)
        default:
            return nil
        }
    }
}
