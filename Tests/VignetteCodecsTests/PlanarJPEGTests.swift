import Foundation
import Testing

@testable import VignetteCodecs

/// The planar JPEG route (`Thumbnailer+PlanarJPEG`, issue 14): JPEG → Y/Cb/Cr planes at a DCT
/// scale → each plane resampled → RGB or straight back to JPEG. It must take the JPEGs it can,
/// keep the geometry and the quality of the route it replaces, and fall back where it cannot.
@Suite("Planar JPEG route: taken where it applies, as good as the RGB route, falls back on the rest")
struct PlanarJPEGTests {
    static let jpeg80 = EncodingFormat.jpeg(JPEGOptions(quality: 80))

    /// The thumbnail `encodedThumbnail` would make for `format`, with its planes.
    static func made(_ data: Data, _ options: ThumbnailOptions, for format: EncodingFormat) throws -> Thumbnail {
        try Thumbnailer(options: options).lazyThumbnail(data) { _ in format }
    }

    /// The thumbnail the route before this one makes: shrink-on-load through libvips, `vips_resize`.
    /// How far (dHash) an oriented thumbnail may be from the former route's: 2, or 3 from libvips
    /// 8.16 (Debian 13), whose vips_resize places the mirrored 77×61 thumbnails (orientations 2
    /// and 3) a bit differently; Vignette's own route gives the same bytes on Debian 12 and 13.
    static let formerRouteDistance: Int = {
        let parts = (ImagingRuntime.libraryVersions["libvips"] ?? "").split(separator: ".").compactMap { Int($0) }
        return parts.count >= 2 && (parts[0], parts[1]) >= (8, 16) ? 3 : 2
    }()

    static func former(_ options: ThumbnailOptions) -> Thumbnailer {
        var thumbnailer = Thumbnailer(options: options)
        thumbnailer.resampler = .libvips
        return thumbnailer
    }

    @Test("A JPEG headed for JPEG keeps its planes, at 4:2:0 below quality 90 and 4:4:4 from 90; other outputs get none")
    func planesFollowTheEncoding() throws {
        let data = try TestFiles.data(TestFiles.fixture("baseline.jpg"))  // 640x480 at 4:2:0
        // 500 px wide: decoded at full size.
        let options = ThumbnailOptions(width: 500, height: 500)
        let low = try Self.made(data, options, for: Self.jpeg80)
        #expect(low.planes?.subsampling == 2)  // TJSAMP_420
        #expect(low.planes.map { ($0.width, $0.height) } ?? (0, 0) == (500, 375))
        let high = try Self.made(data, options, for: .jpeg(JPEGOptions(quality: 95)))
        #expect(high.planes?.subsampling == 0)  // TJSAMP_444
        // A PNG, a progressive JPEG or one that keeps metadata, a lossless WebP and a 4:4:4 AVIF
        // are written from RGB: planes at 4:4:4 all the same (the finest colour), never encoded as
        // they are.
        for format in [
            EncodingFormat.png(PNGOptions()), .jpeg(JPEGOptions(progressive: true)), .jpeg(JPEGOptions(keepMetadata: true)),
            .webp(WebPOptions(lossless: true)), .avif(HEIFOptions(chroma: .yuv444)), .avif(HEIFOptions(lossless: true)),
        ] {
            let made = try Self.made(data, options, for: format)
            #expect(made.planes?.subsampling == 0, "\(format)")
            #expect(try Thumbnailer.encodedFromPlanes(#require(made.planes), as: format) == nil, "\(format)")
        }
        // The image the encoder choice sees is the same thumbnail, in RGB.
        #expect(low.image.width == 500 && low.image.height == 375 && low.image.bands == 3)
        #expect(try low.image.perceptualHash().distance(to: high.image.perceptualHash()) <= 1)

        // Lossy WebP, AVIF and HEIC code 4:2:0 Y/Cb/Cr: they get 4:2:0 planes and encode them.
        for format in [EncodingFormat.webp(WebPOptions()), .avif(HEIFOptions()), .heic(HEIFOptions())] {
            let made = try Self.made(data, options, for: format)
            #expect(made.planes?.subsampling == 2, "\(format)")
            let planes = try #require(made.planes, "\(format)")
            let encoded = try #require(try Thumbnailer.encodedFromPlanes(planes, as: format), "\(format)")
            let decoded = try ImageDecoder(limits: .unlimited).decode(encoded)
            #expect(decoded.width == 500 && decoded.height == 375, "\(format)")
            #expect(try decoded.perceptualHash().distance(to: low.image.perceptualHash()) <= 2, "\(format)")
        }

        // 200 px wide: decoded at 1/2 scale, where libjpeg makes the chroma at full resolution from
        // the coefficients. Only 4:2:0 outputs take the planes then; the rest takes the RGB route.
        let small = ThumbnailOptions(width: 200, height: 200)
        for format in [Self.jpeg80, .webp(WebPOptions()), .avif(HEIFOptions())] {
            #expect(try Self.made(data, small, for: format).planes?.subsampling == 2, "\(format)")
        }
        for format in [EncodingFormat.jpeg(JPEGOptions(quality: 95)), .png(PNGOptions()), .webp(WebPOptions(lossless: true))] {
            let made = try Self.made(data, small, for: format)
            #expect(made.planes == nil, "\(format)")
            #expect(made.image.width == 200 && made.image.height == 150, "\(format)")
        }
    }

    @Test("Planes resized to their own size: the reducer gives their pictures back, and unpadded planes whole", arguments: [
        (33, 7, Int32(2)), (32, 8, 2), (1000, 1, 2), (33, 7, 0), (1, 1, 0), (17, 5, 3),  // TJSAMP_420, _444, _GRAY
    ])
    func planesAtTheirOwnSize(width: Int, height: Int, subsampling: Int32) throws {
        var planes = YCbCrPlanes(width: width, height: height, subsampling: subsampling)
        var generator = SystemRandomNumberGenerator()
        let heights = (0..<planes.planeCount).map { planes.planeSize($0).height }
        planes.withMutablePlanePointers { pointers, strides in
            for (index, high) in heights.enumerated() {
                for offset in 0..<(Int(strides[index]) * high) { pointers[index]![offset] = UInt8.random(in: 0...255, using: &generator) }
            }
        }
        for implementation in LanczosReducer.Implementation.allCases where implementation != .avx2 || LanczosReducer.hasAVX2 {
            let same = try planes.resized(toWidth: width, height: height, subsampling: subsampling, threads: 2, implementation: implementation)
            // Every plane's picture (the samples that are not libjpeg's padding to whole MCUs) is
            // the input's, whichever way it was made.
            for index in 0..<planes.planeCount {
                let size = planes.planeSize(index)
                let wide = index == 0 || subsampling != 2 ? width : (width + 1) / 2
                let high = index == 0 || subsampling != 2 ? height : (height + 1) / 2
                let offset = (0..<index).reduce(0) { $0 + planes.planeSize($1).width * planes.planeSize($1).height }
                for row in 0..<high {
                    let start = offset + row * size.width
                    #expect(same.bytes[start..<start + wide] == planes.bytes[start..<start + wide], "plane \(index) row \(row), \(implementation)")
                }
            }
            // Without padding, the planes are all of it and come back as they are.
            let padded = subsampling == 2 && (width % 2 == 1 || height % 2 == 1)
            if !padded { #expect(same.bytes == planes.bytes) }
        }
    }

    @Test("Odd boxes at every DCT scale, as JPEG, WebP, AVIF and HEIC: exact geometry, and the look of the former route", arguments: [
        (97, 97), (161, 121), (319, 239), (640, 480), (33, 7), (7, 33), (1, 1),
    ])
    func geometry(_ box: (Int, Int)) throws {
        let data = try TestFiles.data(TestFiles.fixture("baseline.jpg"))
        let options = ThumbnailOptions(width: box.0, height: box.1)
        let (bytes, made) = try Thumbnailer(options: options).encodedThumbnail(data, as: Self.jpeg80)
        let (formerBytes, before) = try Self.former(options).encodedThumbnail(data, as: Self.jpeg80)
        // 1×1 from 80×60 (the 1/8 decode) is steeper than the reducer takes: libvips resizes it.
        #expect((made.planes != nil) == (box != (1, 1)), "\(box)")
        #expect(made.route == before.route)
        let decoded = try ImageDecoder(limits: .unlimited).decode(bytes)
        let formerDecoded = try ImageDecoder(limits: .unlimited).decode(formerBytes)
        #expect(decoded.width == formerDecoded.width && decoded.height == formerDecoded.height, "\(box)")
        if decoded.width >= 9, decoded.height >= 8 {
            #expect(try decoded.perceptualHash().distance(to: formerDecoded.perceptualHash()) <= 3, "\(box)")
        }
        // WebP, AVIF and HEIC written from the planes: odd sides pad their chroma as JPEG does.
        for format in [EncodingFormat.webp(WebPOptions()), .avif(HEIFOptions()), .heic(HEIFOptions())] where box != (1, 1) {
            let (bytes, made) = try Thumbnailer(options: options).encodedThumbnail(data, as: format)
            #expect(made.planes != nil, "\(box) \(format)")
            let decoded = try ImageDecoder(limits: .unlimited).decode(bytes)
            #expect(decoded.width == formerDecoded.width && decoded.height == formerDecoded.height, "\(box) \(format)")
            if decoded.width >= 9, decoded.height >= 8 {
                #expect(try decoded.perceptualHash().distance(to: formerDecoded.perceptualHash()) <= 4, "\(box) \(format)")
            }
        }
    }

    @Test("A greyscale JPEG to WebP: grey planes, neutral chroma, the look of the former route")
    func greyToWebP() throws {
        // A 1-band JPEG made here: a diagonal ramp with a bright square.
        let (width, height) = (300, 200)
        var bytes = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { bytes[y * width + x] = (60..<140).contains(x) && (50..<130).contains(y) ? 240 : UInt8((x + y) * 255 / (width + height)) }
        }
        let grey = try Image(pixels: PixelBuffer(width: width, height: height, bands: 1, bytes: bytes))
        let data = try ImageEncoder.encode(grey, as: .jpeg(JPEGOptions(quality: 95)))
        let options = ThumbnailOptions(width: 150, height: 150)
        let webp = EncodingFormat.webp(WebPOptions())
        let (encoded, made) = try Thumbnailer(options: options).encodedThumbnail(data, as: webp)
        #expect(made.planes?.isGrey == true)
        let (formerEncoded, _) = try Self.former(options).encodedThumbnail(data, as: webp)
        let decoded = try ImageDecoder(limits: .unlimited).decode(encoded).standardizedToRGB8().pixels()
        let former = try ImageDecoder(limits: .unlimited).decode(formerEncoded).standardizedToRGB8().pixels()
        #expect(decoded.width == 150 && decoded.height == 100)
        // Neutral: red, green and blue within 2 of each other everywhere.
        let bands = decoded.bands
        let spread = stride(from: 0, to: decoded.bytes.count, by: bands).map { i in
            let rgb = decoded.bytes[i..<(i + 3)]
            return Int(rgb.max() ?? 0) - Int(rgb.min() ?? 0)
        }.max() ?? 255
        #expect(spread <= 2)
        #expect(ResizeSIMDTests.psnr(decoded, former) >= 35)
    }

    @Test("EXIF orientations 1-8: decoded as planes, the planes turned upright and written as they are, the same as the former route",
          arguments: [(120, 120), (77, 61)])
    func orientations(_ box: (Int, Int)) throws {
        var upright = 0.0
        for orientation in 1...8 {
            let data = try TestFiles.data(TestFiles.fixture("orientation-\(orientation).jpg"))
            let options = ThumbnailOptions(width: box.0, height: box.1)
            let made = try Self.made(data, options, for: Self.jpeg80)
            let before = try Self.former(options).thumbnail(data)
            #expect(made.decodedAsPlanes)
            #expect(made.image.width == before.image.width && made.image.height == before.image.height)
            #expect(made.image.orientation == 1 && before.image.orientation == 1)
            let distance = try made.image.perceptualHash().distance(to: before.image.perceptualHash())
            #expect(distance <= Self.formerRouteDistance, "orientation \(orientation)")
            // The planes were turned too, and are what is written: upright, like the RGB image.
            let planes = try #require(made.planes, "orientation \(orientation)")
            #expect(planes.width == made.image.width && planes.height == made.image.height)
            let written = try ImageDecoder().decode(try #require(try Thumbnailer.encodedFromPlanes(planes, as: Self.jpeg80)))
            #expect(written.width == before.image.width && written.height == before.image.height)
            #expect(try written.perceptualHash().distance(to: before.image.perceptualHash()) <= 3, "orientation \(orientation)")
            // As close to the former route's upright pixels as the unturned planes' JPEG is (within
            // 0.5 dB): the turn adds nothing of its own, even at odd sizes.
            let psnr = ResizeSIMDTests.psnr(try written.pixels(), try before.image.pixels())
            if orientation == 1 { upright = psnr }
            #expect(psnr >= upright - 0.5, "orientation \(orientation): \(psnr) dB, upright \(upright) dB")
        }
    }

    @Test("A JPEG with a profile that is not sRGB: decoded as planes, then converted (or tagged) after the resize as on the former route",
          arguments: ["adobergb.jpg", "corpus/Landscape_6.jpg", "corpus/Landscape_8.jpg"])
    func profiled(_ name: String) throws {
        let url = name.hasPrefix("corpus/") ? TestFiles.corpusFile(String(name.dropFirst(7))) : TestFiles.fixture(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return }  // corpus absent
        let data = try TestFiles.data(url)
        let profile = try #require(try ImageDecoder().decode(data).iccProfile)
        #expect(!SRGBProfiles.isSRGB(profile), "\(name)'s profile moves colours")
        for keep in [false, true] {
            var options = ThumbnailOptions(width: 150, height: 150)
            options.keepProfile = keep
            options.useEmbeddedThumbnail = false
            let made = try Self.made(data, options, for: Self.jpeg80)
            #expect(made.decodedAsPlanes, "\(name), keepProfile \(keep)")
            // Written from RGB: the planes carry neither the conversion nor the profile.
            #expect(made.planes == nil)
            #expect(made.image.iccProfile == (keep ? profile : nil), "\(name), keepProfile \(keep)")
            let before = try Self.former(options).thumbnail(data)
            #expect(!before.decodedAsPlanes)
            #expect(made.image.width == before.image.width && made.image.height == before.image.height)
            #expect(before.image.iccProfile == made.image.iccProfile)
            // The issue's bar: within 0.5 dB of the former route against a reference resize of the
            // full-size decode, converted (or not) as the thumbnail is.
            var full = try ImageDecoder(limits: .unlimited).decode(data).materialized().autoOriented()
            if !keep { full = try full.convertedToSRGB() }
            let (w, h) = (made.image.width, made.image.height)
            var exact = try full.resized(
                horizontalScale: Double(w) / Double(full.width), verticalScale: Double(h) / Double(full.height), kernel: .lanczos3)
            if exact.width != w || exact.height != h { exact = try full.resized(toWidth: w, height: h, kernel: .lanczos3) }
            // Compared as written (a JPEG at 4:2:0), which is what the planes' 4:2:0 chroma is for.
            let reference = try exact.pixels()
            let written = try ImageDecoder(limits: .unlimited).decode(Thumbnailer(options: options).encodedThumbnail(data, as: Self.jpeg80).data)
            let formerWritten = try ImageDecoder(limits: .unlimited).decode(Self.former(options).encodedThumbnail(data, as: Self.jpeg80).data)
            #expect(written.iccProfile == (keep ? profile : nil) && formerWritten.iccProfile == written.iccProfile)
            let own = ResizeSIMDTests.psnr(try written.pixels(), reference)
            let former = ResizeSIMDTests.psnr(try formerWritten.pixels(), reference)
            print("\(name), keepProfile \(keep): \(own) dB, the former route \(former) dB")
            #expect(own >= former - 0.5, "\(name), keepProfile \(keep): \(own) dB against the former route's \(former)")
            #expect(try made.image.perceptualHash().distance(to: before.image.perceptualHash()) <= 2)
        }
    }

    @Test("Cover crops and blur use the planar decode and write from RGB")
    func changedAfterResize() throws {
        let data = try TestFiles.data(TestFiles.fixture("baseline.jpg"))
        var cover = ThumbnailOptions(width: 100, height: 100, fit: .cover)
        let cropped = try Self.made(data, cover, for: Self.jpeg80)
        #expect(cropped.planes == nil && cropped.image.width == 100 && cropped.image.height == 100)
        cover.blurSigma = 2
        let blurred = try Self.made(data, cover, for: Self.jpeg80)
        #expect(blurred.planes == nil)
        let formerBlurred = try Self.former(cover).thumbnail(data)
        #expect(try blurred.image.perceptualHash().distance(to: formerBlurred.image.perceptualHash()) <= 2)
    }

    @Test("Damaged, hostile, CMYK and non-JPEG inputs get what the former route gives them", arguments: [
        "cut-short.jpg", "corrupt.jpg", "empty.jpg", "hostile-coefficients.jpg", "hostile-missing-data.jpg",
        "hostile-progressive.jpg", "cmyk.jpg", "progressive.jpg", "exif-thumbnail.jpg", "rgb8.png",
    ])
    func fallbacks(_ name: String) throws {
        let data = try TestFiles.data(TestFiles.fixture(name))
        let options = ThumbnailOptions(width: 64, height: 64)
        let now = Result { () throws(ImagingError) in try Thumbnailer(options: options).encodedThumbnail(data, as: Self.jpeg80) }
        let then = Result { () throws(ImagingError) in try Self.former(options).encodedThumbnail(data, as: Self.jpeg80) }
        switch (now, then) {
        case (.success(let a), .success(let b)):
            #expect(a.thumbnail.image.width == b.thumbnail.image.width && a.thumbnail.image.height == b.thumbnail.image.height)
            #expect(a.thumbnail.route == b.thumbnail.route)
            // CMYK and PNG never take the planar route.
            if name == "cmyk.jpg" || name == "rgb8.png" { #expect(a.thumbnail.planes == nil) }
        case (.failure(let a), .failure(let b)):
            #expect(a.kind == b.kind, "\(name): \(a) vs \(b)")
        default:
            Issue.record("\(name): \(now) vs \(then)")
        }
    }

    @Test("A cancelled thumbnail stops before the planar decode")
    func cancelledBeforeDecoding() throws {
        let data = try TestFiles.data(TestFiles.fixture("baseline.jpg"))
        let cancellation = ImagingCancellation()
        cancellation.cancel()
        #expect {
            try Thumbnailer(options: ThumbnailOptions(width: 100, height: 100)).encodedThumbnail(data, cancellation: cancellation) { _ in Self.jpeg80 }
        } throws: { ($0 as? ImagingError)?.kind == .cancelled }
    }

    /// The issue's bar for the written file: the planar route's JPEG, WebP or AVIF, decoded, scores
    /// within 0.5 dB of the former route's against a reference resize (libvips Lanczos 3 of the full-size decode,
    /// at the exact scale), and looks like `vips_thumbnail`'s.
    @Test(
        "Corpus photos as JPEG, WebP and AVIF: within 0.5 dB of the former route against a reference resize, dHash ≤ 5 from vips_thumbnail",
        .enabled(if: TestFiles.corpusAvailable, "needs ../shared/corpus"),
        arguments: ["2569067123_aca715a2ee_o.jpg", "gain-map.jpg", "Landscape_1.jpg"],
        [jpeg80, .webp(WebPOptions()), .avif(HEIFOptions())])
    func corpusQuality(_ name: String, _ format: EncodingFormat) throws {
        let data = try TestFiles.data(TestFiles.corpusFile(name))
        let full = try ImageDecoder(limits: .unlimited).decode(data).materialized().autoOriented()
        for box in [(720, 588), (256, 256)] {
            let options = ThumbnailOptions(width: box.0, height: box.1)
            let (bytes, made) = try Thumbnailer(options: options).encodedThumbnail(data, as: format)
            // gain-map.jpg carries an ICC profile that means sRGB ("sRGB Gamut with sRGB Transfer"):
            // converted away, it changes nothing, so the planar route takes it too.
            #expect(made.planes != nil, "\(name) \(box)")
            let (formerBytes, _) = try Self.former(options).encodedThumbnail(data, as: format)
            var viaVips = options
            viaVips.method = .vipsThumbnail
            let vips = try Thumbnailer(options: viaVips).thumbnail(data)
            let own = try ImageDecoder(limits: .unlimited).decode(bytes)
            let before = try ImageDecoder(limits: .unlimited).decode(formerBytes)
            let (w, h) = (own.width, own.height)
            var exact = try full.resized(
                horizontalScale: Double(w) / Double(full.width), verticalScale: Double(h) / Double(full.height), kernel: .lanczos3)
            if exact.width != w || exact.height != h { exact = try full.resized(toWidth: w, height: h, kernel: .lanczos3) }
            let reference = try exact.pixels()
            let ownPSNR = ResizeSIMDTests.psnr(try own.pixels(), reference)
            let beforePSNR = ResizeSIMDTests.psnr(try before.pixels(), reference)
            #expect(ownPSNR >= beforePSNR - 0.5, "\(name) \(box) \(format): \(ownPSNR) dB vs \(beforePSNR) dB")
            #expect(try own.perceptualHash().distance(to: vips.image.perceptualHash()) <= 5, "\(name) \(box) \(format)")
        }
    }
}
