#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteVips
import VignetteSupport

/// Reads image headers and decodes images with libvips, within `DecodingLimits`.
///
/// Loading goes through libvips' loaders (`vips_image_new_from_source`, sequential access) over a
/// private copy of the bytes; HEIF thumbnail items are read with libheif. Untrusted loaders are
/// blocked for the whole process, so bytes in formats such as SVG-through-ImageMagick or
/// anything only ImageMagick reads give `ImagingError.Kind.unsupportedFormat`; BMP and ICO/CUR,
/// which libvips reads only through ImageMagick, are read by Vignette's own decoders
/// (`ImageFormat.bmp`, `.ico`; the largest icon entry here), and gzip-compressed SVG is
/// decompressed within the SVG budget first. JPEG XL, which libvips 8.14 also flags untrusted, is
/// let through (libvips' `jxlload`, libjxl): its header gives the size the budget is checked
/// against before libjxl decodes a pixel. Video containers (MP4, MOV, WebM, MKV, AVI, MPEG-TS,
/// FLV) give their first frame, upright, through FFmpeg when the package's Video trait is on.
public struct ImageDecoder: Sendable {
    /// The budget every probe and decode is checked against, from the header, before any pixel.
    public var limits: DecodingLimits
    /// The picture read from a PDF (its page) or a video (the frame at a second); the first by
    /// default, and other formats ignore it. An SVG is sanitised (`SVGSanitizer`) and both vector
    /// formats are drawn at their nominal size (a PDF at 72 dpi); a thumbnail (`Thumbnailer`)
    /// draws them at the size of its box instead.
    public var picture = SourcePicture.first

    /// A decoder within `limits`.
    public init(limits: DecodingLimits = .untrusted) {
        self.limits = limits
    }

    /// The header of `data`: format, size, bands, alpha, orientation, pages and embedded thumbnail.
    /// No pixels are decoded.
    public func probe(_ data: Data) throws(ImagingError) -> ImageInfo {
        if let video = try VideoInput.info(data, limits: limits) { return video }
        let source = try LoadedSource(data: data, limits: limits, page: picture.page, headerOnly: true)
        let header: Image
        do {
            header = try source.load(failOn: .none)
        } catch {
            // libvips 8.16's jxlload reads on to the first frame header, which a file of headers
            // alone lacks; its image header is still Vignette's to read.
            if source.format == .jxl, let own = JXLSizeHeader(source.data), let info = own.info { return info }
            throw error
        }
        let format = source.refinedFormat(of: header)
        var thumbnail: PixelSize?
        if format == .heic || format == .avif {
            thumbnail = (try? EmbeddedThumbnail.heif(in: data, limits: limits))?.last?.size
        } else if format == .jpeg {
            thumbnail = EmbeddedThumbnail.exif(of: header, limits: limits)?.size
        }
        return ImageInfo(source: source, header: header, embeddedThumbnail: thumbnail)
    }

    /// The header of the file at `path`; see `probe(_:)`.
    public func probe(fileAt path: String) throws(ImagingError) -> ImageInfo {
        try probe(InputFile.read(path, limits: limits))
    }

    /// Decodes the first frame of `data` into memory, after checking what the decode will cost
    /// (`DecodingCost`, from the header) against the limits.
    /// The EXIF orientation is not applied (see `Image.autoOriented()`).
    public func decode(_ data: Data) throws(ImagingError) -> Image {
        try decode(data, cancellation: nil)
    }

    /// `decode(_:)`, stopped part-way when `cancellation` is cancelled (`ImagingError.Kind.cancelled`).
    public func decode(_ data: Data, cancellation: ImagingCancellation?) throws(ImagingError) -> Image {
        if let video = try VideoInput.poster(data, at: picture.videoSecond, limits: limits, cancellation: cancellation) { return video.image }
        let source = try LoadedSource(data: data, limits: limits, page: picture.page)
        let header = try source.load(failOn: limits.failOn)
        try limits.check(DecodePlan.full(source, header).cost)
        let cancellation = limits.renderDeadline(cancellation, for: source.data)
        do {
            return try header.materialized(cancellation: cancellation)
        } catch where [.corruptData, .truncatedData, .unsupportedFormat].contains(error.kind) && limits.failOn != .none {
            // libvips' error buffer is process-wide, so its message cannot be trusted to tell
            // truncated from corrupt data under concurrency (another thread's "not a known format"
            // can even arrive here); a lenient decode can. A format a loader was found for and a
            // lenient decode reads is supported: only an unreadable one keeps "unsupported".
            let decodable = (try? source.load(failOn: .none).materialized()) != nil
            if error.kind == .unsupportedFormat, !decodable { throw error }
            throw ImagingError(decodable ? .truncatedData : .corruptData, error.message)
        }
    }

    /// Decodes the file at `path`; see `decode(_:)`.
    public func decode(fileAt path: String) throws(ImagingError) -> Image {
        try decode(InputFile.read(path, limits: limits))
    }
}
