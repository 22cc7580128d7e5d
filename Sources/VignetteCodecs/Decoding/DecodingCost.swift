/// What one decode will cost, worked out from the header before any pixel is decoded; checked
/// against `DecodingLimits` by every path that decodes.
///
/// - `sourcePixels`: the pixels the decoder goes through at full size (the work): the image's
///   real size (for HEIF/AVIF the larger of `ispe` and the coded size in the AV1 sequence header
///   or HEVC SPS), or the canvas of an animation, times the frames decoded.
/// - `decodedPixels`: the pixels it produces, after shrink-on-load, summed over the frames.
/// - `memoryBytes`: the decoded pixels × bands × bytes per band, plus libjpeg's whole-image DCT
///   coefficient buffers for progressive and multi-scan JPEG (2 bytes per coefficient, at full
///   size whatever the DCT scale), plus `linesInFlight` lines of the decoded width at 4 bytes per
///   band (libvips streams in strips, and converts colour in float), which is what makes a very
///   wide image cost far more than its pixels suggest.
struct DecodingCost: Equatable {
    /// The image as the message names it, e.g. "image is 49748x32767".
    var what: String
    var sourcePixels: Int
    var decodedPixels: Int
    var memoryBytes: Int
    /// Why the memory is what it is, when it is not just the pixels (begins with a space).
    var memoryNote = ""

    /// Lines of the decoded width counted as in flight while libvips streams an image (a very
    /// wide 16-bit PNG's peak memory, in docs/performance.md).
    static let linesInFlight = 32

    /// libjxl's decoding memory a pixel beyond the decoded pixels (see `of(source:header:decoded:frames:)`).
    static let libjxlBytesPerPixel = 4
}

extension DecodingCost {
    /// The cost of decoding `header` (the libvips header read from `source`) at `decoded` size
    /// (its stored size, or smaller through shrink-on-load), `frames` frames of it.
    static func of(source: LoadedSource, header: Image, decoded: PixelSize, frames: Int = 1) -> DecodingCost {
        let stored = PixelSize(width: header.width, height: header.height)
        var bands = header.bands
        var bytesPerBand = header.bytesPerSample
        var full = stored
        var out = decoded
        var extraMemory = 0
        var note = ""
        switch source.format {
        case .heic, .avif:
            // libheif decodes the coded picture whatever `ispe` claims, then crops it.
            if let coded = HEIFCodedSize.largest(in: source.data), coded.area > stored.area {
                full = coded
                out = coded
                note = " (its coded size is \(coded))"
            }
        case .jpeg:
            if let frame = JPEGFrameHeader(source.data), frame.keepsWholeImageCoefficients {
                extraMemory = frame.coefficientBytes
                note = " (libjpeg keeps the coefficients of the whole image for a \(frame.isProgressive ? "progressive" : "multi-scan") JPEG)"
            }
        case .jxl:
            // libvips 8.14's jxlload decodes the whole image into memory, and libjxl keeps frame
            // buffers of its own beside it: measured with `vips copy` of 6- and 24-megapixel
            // 8-bit RGB files, 5.7–6.3 bytes a pixel in all, so about 4 beyond the pixels.
            extraMemory = Int.saturating(stored.width, stored.height, libjxlBytesPerPixel)
            note = " (libjxl's own buffers beside the pixels)"
        case .svg, .pdf:
            // A vector source is drawn at the size asked for: the work is the pixels rendered,
            // whatever its nominal size.
            full = out
            bands = 4
            bytesPerBand = 1
        case .webp where header.pageCount > 1:
            // Animation frames are decoded and composed on the full canvas, as RGBA, before any
            // scaling (GIF frames are canvas-sized anyway, and GIF has no shrink-on-load).
            out = stored
            bands = 4
            bytesPerBand = 1
        default:
            break
        }
        let frames = max(1, frames)
        let pixels = Int.saturating(out.width, out.height, frames)
        let decodedBytes = Int.saturating(pixels, bands, bytesPerBand)
        let window = Int.saturating(out.width, bands, 4, min(out.height, linesInFlight))
        return DecodingCost(
            what: "image is \(stored)" + (frames > 1 ? " × \(frames) frames" : ""),
            sourcePixels: Int.saturating(full.width, full.height, frames),
            decodedPixels: pixels,
            memoryBytes: Int.saturatingSum(decodedBytes, extraMemory, window),
            memoryNote: note)
    }
}

extension DecodingCost {
    /// The least a JPEG XL of the size its codestream header claims costs (one band, plus libjxl's
    /// own buffers), checked before libjxl reads the file; the header libvips reads after it gives
    /// the whole cost.
    static func ofJXLSizeHeader(_ header: JXLSizeHeader) -> DecodingCost {
        let pixels = Int.saturating(header.width, header.height)
        return DecodingCost(
            what: "image is \(header.width)x\(header.height)", sourcePixels: pixels, decodedPixels: pixels,
            memoryBytes: Int.saturating(pixels, 1 + libjxlBytesPerPixel), memoryNote: " (libjxl's own buffers beside the pixels)")
    }
}

extension DecodingCost {
    /// The cost of libwebp's incremental decoder for a still WebP: one RGB(A) buffer of the full
    /// image (`WebPINewRGB`), from the bitstream features alone.
    static func ofIncrementalWebP(width: Int, height: Int, bands: Int) -> DecodingCost {
        let pixels = Int.saturating(width, height)
        return DecodingCost(
            what: "image is \(width)x\(height)", sourcePixels: pixels, decodedPixels: pixels,
            memoryBytes: Int.saturating(pixels, bands))
    }
}

extension DecodingCost {
    /// The cost of a result of `size` (a thumbnail resized up to it), held in memory as 8 bits
    /// per band.
    static func ofResult(_ size: PixelSize, bands: Int) -> DecodingCost {
        DecodingCost(
            what: "the result would be \(size)", sourcePixels: 0, decodedPixels: size.area,
            memoryBytes: Int.saturating(size.area, bands))
    }
}

extension DecodingCost {
    /// The memory of encoding `image` as `format`: its pixels as 8-bit bands plus the encoder's
    /// working buffers (`EncodingFormat.workingBytesPerPixel`).
    static func ofEncoding(_ image: Image, as format: EncodingFormat) -> DecodingCost {
        let size = PixelSize(width: image.width, height: image.height)
        return DecodingCost(
            what: "encoding \(size) as \(format.format)", sourcePixels: 0, decodedPixels: 0,
            memoryBytes: Int.saturating(size.area, max(3, image.bands) + format.workingBytesPerPixel))
    }
}

extension PixelSize {
    /// width × height, saturating at `Int.max`.
    var area: Int { Int.saturating(width, height) }
}

extension Int {
    /// The product of `factors` (all ≥ 0), or `.max` when it overflows.
    static func saturating(_ factors: Int...) -> Int {
        var product = 1
        for factor in factors {
            let (result, overflow) = product.multipliedReportingOverflow(by: Swift.max(0, factor))
            if overflow { return .max }
            product = result
        }
        return product
    }

    /// The sum of `terms` (all ≥ 0), or `.max` when it overflows.
    static func saturatingSum(_ terms: Int...) -> Int {
        var sum = 0
        for term in terms {
            let (result, overflow) = sum.addingReportingOverflow(Swift.max(0, term))
            if overflow { return .max }
            sum = result
        }
        return sum
    }
}
