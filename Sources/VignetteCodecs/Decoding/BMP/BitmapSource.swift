#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// A BMP file or an ICO/CUR icon, found by its signature and read by Vignette's own decoders
/// (libvips 8.14 reads neither except through ImageMagick, which stays blocked): a BMP, or an
/// icon's bitmap entry, decoded by `BMPDecoder` after its cost was checked against the budget; an
/// icon's PNG entry handed back as bytes for libvips' PNG loader (`LoadedSource` loads it).
///
/// An icon's entry is the one the result needs (`ICODirectory.entry(largeEnough:)`): the smallest
/// a thumbnail need not enlarge, else the largest; with no test (a decode, a probe), the largest.
struct BitmapSource {
    enum Content {
        /// Bitmap bytes (a BMP file, or an icon's DIB) at `range` of the data.
        case bitmap(range: Range<Int>, icon: Bool)
        /// An icon's PNG entry.
        case png(Data)
    }

    var format: ImageFormat
    var content: Content

    /// What `data` holds when it is a BMP, ICO or CUR; nil when it is neither.
    init?(_ data: Data, largeEnough: ((PixelSize) -> Bool)?) throws(ImagingError) {
        let found: Result<BitmapSource?, ImagingError> = data.withUnsafeBytes { raw in
            Result { () throws(ImagingError) -> BitmapSource? in
                let bytes = LittleEndianBytes(raw: raw)
                if BMPHeader.looksLikeBMP(bytes) { return BitmapSource(format: .bmp, content: .bitmap(range: 0..<raw.count, icon: false)) }
                guard ICODirectory.looksLikeICO(bytes) else { return nil }
                let entry = try ICODirectory(bytes).entry(largeEnough: largeEnough)
                let range = entry.offset..<(entry.offset + entry.length)
                return BitmapSource(format: .ico, content: entry.isPNG ? .png(Data(raw[range])) : .bitmap(range: range, icon: true))
            }
        }
        guard let source = try found.get() else { return nil }
        self = source
    }

    private init(format: ImageFormat, content: Content) {
        self.format = format
        self.content = content
    }

    /// The bitmap as an image: decoded (its cost, from the header, checked against `limits`
    /// first), or, for a probe (`headerOnly`), an image of its header without pixels. Nil for a
    /// PNG entry, which libvips loads.
    func image(_ data: Data, limits: DecodingLimits, headerOnly: Bool) throws(ImagingError) -> Image? {
        guard case .bitmap(let range, let icon) = content else { return nil }
        let made: Result<Image, ImagingError> = data.withUnsafeBytes { whole in
            Result { () throws(ImagingError) -> Image in
                let bytes = LittleEndianBytes(raw: UnsafeRawBufferPointer(rebasing: whole[range]))
                let header = icon ? try BMPHeader.parse(bytes, at: 0, pixelOffset: nil, icon: true) : try BMPHeader.ofFile(bytes)
                // A probe reads what it can, as libvips' loaders do for a header.
                let decoder = BMPDecoder(bytes: bytes, header: header, failOn: headerOnly ? .none : limits.failOn, icon: icon)
                if !headerOnly {
                    // The most the decode can cost, before the bytes are even read through.
                    try limits.check(.ofBitmap(width: header.width, height: header.height, bands: header.maxBands(icon: icon)))
                }
                let analysis = try decoder.analyse()
                if headerOnly { return try Image(headerOf: header.width, header.height, bands: analysis.bands) }
                return try decoder.decode(analysis)
            }
        }
        return try made.get()
    }
}

extension DecodingCost {
    /// The cost of decoding a bitmap of `width` × `height` into `bands` 8-bit bands in memory:
    /// what `of(source:header:decoded:frames:)` gives for the decoded image, so both checks agree.
    static func ofBitmap(width: Int, height: Int, bands: Int) -> DecodingCost {
        let pixels = Int.saturating(width, height)
        return DecodingCost(
            what: "image is \(width)x\(height)", sourcePixels: pixels, decodedPixels: pixels,
            memoryBytes: Int.saturatingSum(Int.saturating(pixels, bands), Int.saturating(width, bands, 4, min(height, linesInFlight))))
    }
}

extension Image {
    /// An image of `width` × `height` × `bands` 8-bit sRGB samples that has a header and no
    /// pixels (`vips_image_new`, `vips_image_init_fields`): what a probe reads; never computed.
    convenience init(headerOf width: Int, _ height: Int, bands: Int) throws(ImagingError) {
        guard let made = vips_image_new() else { throw VipsErrors.operationError("vips_image_new") }
        self.init(owning: made)
        vips_image_init_fields(made, Int32(clamping: width), Int32(clamping: height), Int32(bands), VIPS_FORMAT_UCHAR, VIPS_CODING_NONE, VIPS_INTERPRETATION_sRGB, 1, 1)
    }
}
