import Foundation
import Testing
import VignetteCodecs

/// Extreme geometry through every shrink-on-load format, fit mode and route: no crash, and exactly
/// the size the thumbnail contract gives. The sources are made here (solid grey, encoded by
/// libvips or libwebp); a crash would take the whole test process down, so the suite failing
/// at all is the signal.
@Suite("Thumbnail geometry: extreme aspect ratios and tiny boxes")
struct GeometryPropertyTests {
    /// Source sizes: 1×1 up to 1:65500 (WebP stops at 16383 a side).
    static let sources: [PixelSize] = [
        PixelSize(width: 1, height: 1), PixelSize(width: 2, height: 1), PixelSize(width: 1, height: 2),
        PixelSize(width: 1000, height: 1), PixelSize(width: 1, height: 600), PixelSize(width: 333, height: 17),
        PixelSize(width: 7, height: 16383), PixelSize(width: 16383, height: 7),
        PixelSize(width: 2, height: 65500), PixelSize(width: 65500, height: 2),
    ]
    /// Target boxes from 1 px up.
    static let boxes: [PixelSize] = [
        PixelSize(width: 1, height: 1), PixelSize(width: 1, height: 7), PixelSize(width: 7, height: 1),
        PixelSize(width: 100, height: 3), PixelSize(width: 256, height: 256),
    ]

    enum Format: String, CaseIterable, CustomTestStringConvertible {
        case jpeg, webp, png
        var testDescription: String { rawValue }

        func encode(_ size: PixelSize) throws -> Data? {
            if self == .webp, max(size.width, size.height) > 16383 { return nil }
            let pixels = PixelBuffer(width: size.width, height: size.height, bands: 1,
                                     bytes: [UInt8](repeating: 128, count: size.width * size.height))
            let image = try Image(pixels: pixels)
            switch self {
            case .jpeg: return try ImageEncoder.encode(image, as: .jpeg(JPEGOptions(quality: 90)))
            case .webp: return try ImageEncoder.encode(image, as: .webp(WebPOptions(quality: 90)))
            case .png: return try ImageEncoder.encode(image, as: .png(PNGOptions()))
            }
        }
    }

    /// The contract (imgproxy's), written out again: inside fits the box, cover fills it and crops,
    /// fill stretches, auto covers when the orientations agree and fits inside otherwise; no side
    /// below 1; no upscaling unless asked.
    static func expected(_ source: PixelSize, _ box: PixelSize, _ fit: ThumbnailOptions.Fit, upscale: Bool) -> (resized: PixelSize, output: PixelSize) {
        let w = Double(source.width), h = Double(source.height)
        let sx = Double(box.width) / w, sy = Double(box.height) / h
        func limit(_ s: Double) -> Double { upscale ? s : min(s, 1) }
        func side(_ length: Double, _ s: Double) -> Int { max(1, Int((length * s).rounded())) }
        switch fit {
        case .inside:
            let s = limit(min(sx, sy))
            let size = PixelSize(width: side(w, s), height: side(h, s))
            return (size, size)
        case .cover:
            let s = limit(max(sx, sy))
            let resized = PixelSize(width: side(w, s), height: side(h, s))
            return (resized, PixelSize(width: min(box.width, resized.width), height: min(box.height, resized.height)))
        case .fill:
            // imgproxy's force: without upscaling, the factor that would enlarge most is brought
            // to 1 and the other keeps its proportion to it.
            let smallest = min(sx, sy)
            let (fx, fy) = !upscale && smallest > 0 && max(sx, sy) > 1 ? (sx / max(sx, sy), sy / max(sx, sy)) : (sx, sy)
            let size = PixelSize(width: side(w, fx), height: side(h, fy))
            return (size, size)
        case .auto:
            // imgproxy's auto: cover when both are landscape (or square) or both portrait.
            let same = (source.width >= source.height) == (box.width >= box.height)
            return expected(source, box, same ? .cover : .inside, upscale: upscale)
        }
    }

    @Test("every source × box × fit × route gives the contract's size", arguments: Format.allCases)
    func geometry(format: Format) throws {
        var checked = 0
        for source in Self.sources {
            guard let data = try format.encode(source) else { continue }
            for box in Self.boxes {
                for fit in ThumbnailOptions.Fit.allCases {
                    for method in ThumbnailOptions.Method.allCases {
                        // Upscaling is worked out the same way on both routes: one is enough.
                        for upscale in method == .shrinkOnLoad ? [false, true] : [false] {
                            var options = ThumbnailOptions(width: box.width, height: box.height, fit: fit, allowUpscaling: upscale)
                            options.method = method
                            let (resized, output) = Self.expected(source, box, fit, upscale: upscale)
                            let label = "\(format) \(source) into \(box) \(fit) \(method) upscale \(upscale)"
                            if resized.width * resized.height > DecodingLimits.untrusted.maxPixels {
                                let error = expectImagingError(Comment(rawValue: label)) { () throws(ImagingError) in
                                    try Thumbnailer(options: options).thumbnail(data)
                                }
                                #expect(error?.kind == .limitExceeded, "\(label)")
                                continue
                            }
                            do {
                                let thumbnail = try Thumbnailer(options: options).thumbnail(data)
                                #expect(PixelSize(width: thumbnail.image.width, height: thumbnail.image.height) == output, "\(label)")
                            } catch {
                                Issue.record("\(label): \(error)")
                            }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 60)
    }

    @Test("the 191-byte 1000×1 JPEG thumbnails in every mode and format")
    func lineJPEG() throws {
        let data = try TestFiles.data(TestFiles.fixture("line-1000x1.jpg"))
        for fit in ThumbnailOptions.Fit.allCases {
            for size in [1, 8, 100, 256] {
                let thumbnail = try Thumbnailer(options: ThumbnailOptions(size: size, fit: fit)).thumbnail(data)
                let (_, output) = Self.expected(PixelSize(width: 1000, height: 1), PixelSize(width: size, height: size), fit, upscale: false)
                #expect(PixelSize(width: thumbnail.image.width, height: thumbnail.image.height) == output)
                for encoding in [EncodingFormat.jpeg(JPEGOptions()), .png(PNGOptions()), .webp(WebPOptions()), .avif(HEIFOptions())] {
                    _ = try Thumbnailer(options: ThumbnailOptions(size: size, fit: fit)).encodedThumbnail(data, as: encoding)
                }
            }
        }
    }

    @Test("an embedded HEIF thumbnail is used only when it covers tiny and lopsided boxes")
    func heifThumbnailBoxes() throws {
        let data = try TestFiles.data(TestFiles.fixture("thumbnail.heic"))  // 1280×960 with a 320×240 thumbnail
        for box in Self.boxes {
            for fit in ThumbnailOptions.Fit.allCases {
                let thumbnail = try Thumbnailer(options: ThumbnailOptions(width: box.width, height: box.height, fit: fit)).thumbnail(data)
                let (resized, output) = Self.expected(PixelSize(width: 1280, height: 960), box, fit, upscale: false)
                #expect(PixelSize(width: thumbnail.image.width, height: thumbnail.image.height) == output, "\(box) \(fit)")
                let fromThumbnail = thumbnail.route == .embeddedThumbnail(kind: "heif")
                #expect(fromThumbnail == (resized.width <= 320 && resized.height <= 240), "\(box) \(fit): \(thumbnail.route)")
            }
        }
    }
}
