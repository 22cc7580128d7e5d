internal import CVignetteImageShims
internal import CVignetteVips
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

/// What an image's header says beyond `ImageInfo`, for imgproxy's `/info`: its colour space and
/// sample format as libvips names them, and its metadata blocks. Read from the header alone
/// (libvips loads no pixels until they are asked for).
package struct HeaderFacts: Sendable, Hashable {
    /// The basics: format, size, bands, alpha, orientation, pages.
    public var info: ImageInfo
    /// libvips' interpretation, e.g. "srgb", "b-w", "cmyk", "rgb16", "grey16" (`vips_image_get_interpretation`).
    public var colourSpace: String
    /// libvips' band format, e.g. "uchar", "ushort", "float" (`vips_image_get_format`).
    public var sampleFormat: String
    /// The EXIF block ("exif-data"), the IPTC/Photoshop block ("iptc-data") and the XMP packet ("xmp-data").
    public var exif: Data?, iptc: Data?, xmp: Data?
}

extension ImageDecoder {
    /// The header facts of `data` (`probe(_:)` plus the colour space, sample format and metadata
    /// blocks); no pixels are decoded.
    package func headerFacts(_ data: Data) throws(ImagingError) -> HeaderFacts {
        let info = try probe(data)
        try limits.checkHeader(info)
        // What probe reads without libvips (a video's first frame, through FFmpeg) has no libvips
        // header: its frames are 8-bit sRGB and it has no metadata blocks.
        guard let source = try? LoadedSource(data: data, limits: limits, headerOnly: true), let header = try? source.load(failOn: .none) else {
            return HeaderFacts(info: info, colourSpace: "srgb", sampleFormat: "uchar", exif: nil, iptc: nil, xmp: nil)
        }
        return HeaderFacts(info: info, header: header)
    }

    /// The header facts of the file at `path`, read from its header alone (`vips_image_new_from_file`,
    /// lazily): the file's bytes are not read into memory, so a huge file costs what its header does.
    package func headerFacts(fileAt path: String) throws(ImagingError) -> HeaderFacts {
        try ImagingRuntime.ensureInitialised()
        let status: FileStatus
        do { status = try FileStatus(path: path) } catch { throw ImagingError(.io, "\(path): \(error)") }
        guard status.kind == .regular else { throw ImagingError(.io, "\(path) is not a regular file") }
        try limits.checkBytes(status.size)
        VipsErrors.reset()
        // A file source reads what the loader asks for: the header, not the pixels.
        guard let source = vips_source_new_from_file(path) else { throw VipsErrors.operationError("vips_source_new_from_file") }
        defer { vgn_unref(source) }
        var found = vips_foreign_find_load_source(source)
        if found == nil, let sniffed = vips_source_sniff(source, 12) {
            let head = Data(bytes: sniffed, count: 12)
            if let module = ModuleSniffer.module(for: head), vgn_open_module(module) == 1 {
                vips_error_clear()
                found = vips_foreign_find_load_source(source)
            }
        }
        let loader = found.map { String(cString: $0) } ?? ""
        vips_error_clear()
        // SVG (sanitised first), PDF (opt-in) and what libvips does not read (video) go the way of
        // every decode: the bytes, through `LoadedSource` and `probe`.
        if loader.isEmpty || loader.hasPrefix("svgload") || loader.hasPrefix("pdfload") {
            return try headerFacts(InputFile.read(path, limits: limits))
        }
        guard let pointer = vgn_image_new_from_source(source, "access=sequential,fail_on=none") else { throw VipsErrors.decodingError() }
        let header = try Image(owning: pointer).withoutUnusableProfile()
        var format = ImageFormat.fromLoader(loader)
        if format == .heic, header.heifCompression == "av1" { format = .avif }
        let info = ImageInfo(
            format: format, width: header.width, height: header.height, bands: header.bands, hasAlpha: header.hasAlpha,
            orientation: header.orientation, pages: header.pageCount, embeddedThumbnail: nil, ignoredProfile: header.ignoredProfile)
        try limits.checkHeader(info)
        return HeaderFacts(info: info, header: header)
    }
}

extension DecodingLimits {
    /// What the header alone can be refused for: a format not allowed, or more pixels a frame than
    /// `maxSourcePixels` (what any decode of it would go through). Frames past `maxFrames` are
    /// dropped, not refused.
    func checkHeader(_ info: ImageInfo) throws(ImagingError) {
        try checkAllowed(info.format)
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        if overflow || pixels > maxSourcePixels {
            throw ImagingError(.limitExceeded, "the image is \(info.width)x\(info.height), over the limit of \(maxSourcePixels) pixels")
        }
    }
}

extension HeaderFacts {
    init(info: ImageInfo, header: Image) {
        self.init(
            info: info, colourSpace: header.enumNickname(interpretation: true), sampleFormat: header.enumNickname(interpretation: false),
            exif: header.blob(named: "exif-data"), iptc: header.blob(named: "iptc-data"), xmp: header.blob(named: "xmp-data"))
    }
}

extension Image {
    /// libvips' nickname of the interpretation or the band format ("srgb", "uchar").
    func enumNickname(interpretation: Bool) -> String {
        let name =
            interpretation
            ? vips_enum_nick(vips_interpretation_get_type(), Int32(vips_image_get_interpretation(pointer).rawValue))
            : vips_enum_nick(vips_band_format_get_type(), Int32(vips_image_get_format(pointer).rawValue))
        return name.map { String(cString: $0) } ?? "unknown"
    }
}
