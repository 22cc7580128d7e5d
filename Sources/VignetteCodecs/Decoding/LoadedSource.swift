#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteVips

/// Encoded bytes handed to libvips as a `VipsSource` that owns a copy of them, plus the loader
/// libvips picked for them. One source can be loaded several times (header, then shrunk pixels).
///
/// An SVG is sanitised first (`SVGSanitizer`): the source, and `data`, hold the sanitised document,
/// the only bytes librsvg sees. A PDF is refused unless `DecodingLimits.allowedInputs` has it, and
/// every load of it reads page `page`. A gzip-compressed SVG (`.svgz`) is decompressed first
/// (`SVGZ`, within the SVG byte budget). A BMP, or an ICO/CUR icon's bitmap, is decoded by
/// Vignette's own decoder (`BitmapSource`) once its cost is checked, and has no libvips source;
/// an icon's PNG entry is loaded by libvips' PNG loader, as `.ico`.
final class LoadedSource: @unchecked Sendable {
    /// The libvips source; nil for a bitmap Vignette decoded itself (`decoded`).
    let pointer: UnsafeMutablePointer<VipsSource>?
    /// A BMP or icon bitmap decoded by `BitmapSource` (a header without pixels for a probe).
    let decoded: Image?
    let data: Data
    /// libvips' loader nickname, e.g. "jpegload_source".
    let loader: String
    let format: ImageFormat
    /// The page a PDF is read at (0 is the first); other formats ignore it.
    let page: Int

    /// Copies `data` into a libvips blob and finds a (trusted) loader for it. Unless `headerOnly`
    /// (a probe), a JPEG XL's own size header is checked against `limits` first. `largeEnough`,
    /// whether a size serves the result without enlarging (nil: the largest), picks an icon's entry.
    init(
        data: Data, limits: DecodingLimits, page: Int = 0, headerOnly: Bool = false, largeEnough: ((PixelSize) -> Bool)? = nil
    ) throws(ImagingError) {
        try ImagingRuntime.ensureInitialised()
        try limits.checkBytes(data.count)
        guard page >= 0 else { throw ImagingError(.invalidArgument, "page must be 0 or more, got \(page)") }
        var bytes = data
        var ownFormat: ImageFormat?
        if let bitmap = try BitmapSource(data, largeEnough: largeEnough) {
            if let image = try bitmap.image(data, limits: limits, headerOnly: headerOnly) {
                self.pointer = nil
                self.decoded = image
                self.data = data
                self.loader = "vignette-\(bitmap.format)"
                self.format = bitmap.format
                self.page = page
                return
            }
            if case .png(let entry) = bitmap.content { bytes = entry }
            ownFormat = bitmap.format
        } else if let svg = try SVGZ.decompressed(data) {
            bytes = svg
        }
        var (made, name) = try Self.found(bytes)
        // librsvg sees only the sanitised document; libvips' sniff is for the first kilobyte,
        // which a long prologue can fill, so Vignette sniffs too.
        if ownFormat == nil, name.map({ ImageFormat.fromLoader($0) == .svg }) ?? SVGSanitizer.looksLikeSVG(bytes) {
            vgn_unref(made)
            bytes = try SVGSanitizer.sanitize(bytes)
            (made, name) = try Self.found(bytes)
            guard name.map({ ImageFormat.fromLoader($0) == .svg }) ?? false else {
                vgn_unref(made)
                throw ImagingError(.unsupportedFormat, "not an SVG document librsvg reads")
            }
        }
        guard let name else {
            // Thrown before every property is set, so deinit will not run: the source (and its
            // copy of the bytes) is released here.
            vgn_unref(made)
            let reason = ImagingError.oneLine(VipsErrors.take())
            throw ImagingError(.unsupportedFormat, "not a supported image format (\(reason))")
        }
        // Sniffing leaves "bad seek" notes in the error buffer even when a loader is found.
        vips_error_clear()
        let format = ownFormat ?? ImageFormat.fromLoader(name)
        do throws(ImagingError) {
            if ownFormat != nil, ImageFormat.fromLoader(name) != .png {
                throw ImagingError(.corruptData, "icon entry looks like a PNG that libvips' PNG loader does not read")
            }
            try limits.checkAllowed(format)
            // libjxl 0.11 calls some huge headers corrupt: the budget has the first word, except
            // for a probe, which decodes nothing.
            if !headerOnly, format == .jxl, let claimed = JXLSizeHeader(bytes) { try limits.check(.ofJXLSizeHeader(claimed)) }
        } catch {
            vgn_unref(made)
            throw error
        }
        self.pointer = made
        self.decoded = nil
        self.data = bytes
        self.loader = name
        self.format = format
        self.page = page
    }

    /// A libvips source over a copy of `data` and the loader libvips finds for it (nil for none),
    /// opening the on-demand module the bytes need first.
    private static func found(_ data: Data) throws(ImagingError) -> (UnsafeMutablePointer<VipsSource>, String?) {
        VipsErrors.reset()
        guard !data.isEmpty else { throw ImagingError(.unsupportedFormat, "input is empty") }
        let made = data.withUnsafeBytes { raw in vgn_source_new_copying(raw.baseAddress, raw.count) }
        guard let made else { throw VipsErrors.operationError("vips_source_new_from_blob") }
        var found = vips_foreign_find_load_source(made)
        if found == nil, let module = ModuleSniffer.module(for: data), vgn_open_module(module) == 1 {
            vips_error_clear()
            found = vips_foreign_find_load_source(made)
        }
        return (made, found.map { String(cString: $0) })
    }

    /// How many `VipsSource`s are alive in the process (`vgn_live_source_count`): a seam for tests
    /// that refused input leaves nothing behind.
    static var liveSourceCount: Int { Int(vgn_live_source_count()) }

    deinit {
        if let pointer { vgn_unref(pointer) }
    }

    /// Loads the image lazily with libvips: only the header is read until pixels are asked for.
    /// `extra` holds loader options such as "shrink=2" or "scale=0.25". An embedded ICC profile
    /// that cannot describe the pixels is taken off (`Image.withoutUnusableProfile()`).
    func load(failOn: FailOn, access: String = "sequential", extra: [String] = []) throws(ImagingError) -> Image {
        // Decoded already (its pixels in memory, immutable): every load shares them.
        if let decoded { return decoded }
        guard let pointer else { throw ImagingError(.operationFailed, "no libvips source to load") }
        let extra = format == .pdf && page > 0 ? ["page=\(page)"] + extra : extra
        let options = (["access=\(access)", "fail_on=\(failOn.rawValue)"] + extra).joined(separator: ",")
        guard let image = vgn_image_new_from_source(pointer, options) else {
            let error = VipsErrors.decodingError()
            if format == .pdf, page > 0, let first = vgn_image_new_from_source(pointer, "access=\(access)") {
                let pages = Image(owning: first).pageCount
                if page >= pages {
                    vips_error_clear()
                    throw ImagingError(.invalidArgument, "page \(page) is past the document's last (it has \(pages), counted from 0)")
                }
            }
            // Truncated means "decodes leniently, with what is missing filled in"; a header that
            // cannot be read even leniently (a file cut off before its frame header) is corrupt.
            guard error.kind == .truncatedData else { throw error }
            let lenient = (["access=\(access)", "fail_on=none"] + extra).joined(separator: ",")
            if failOn != .none, let header = vgn_image_new_from_source(pointer, lenient) {
                vgn_unref(header)
                throw error
            }
            vips_error_clear()
            throw ImagingError(.corruptData, error.message)
        }
        // A profile that cannot describe these pixels is ignored on every route, as libvips does.
        return try Image(owning: image).withoutUnusableProfile()
    }

    /// The format, telling AVIF from HEIC by the header's compression field.
    func refinedFormat(of header: Image) -> ImageFormat {
        if format == .heic, header.heifCompression == "av1" { return .avif }
        return format
    }
}

extension Image {
    /// The "heif-compression" header field ("hevc", "av1"), if any.
    var heifCompression: String? {
        guard vips_image_get_typeof(pointer, "heif-compression") != 0 else { return nil }
        var value: UnsafePointer<CChar>?
        guard vips_image_get_string(pointer, "heif-compression", &value) == 0, let value else {
            vips_error_clear()
            return nil
        }
        return String(cString: value)
    }

    /// Number of pages (frames) the file declares (`vips_image_get_n_pages`).
    var pageCount: Int { max(1, Int(vips_image_get_n_pages(pointer))) }

    /// Bytes of a blob header field such as "jpeg-thumbnail-data".
    func blob(named name: String) -> Data? {
        var data: UnsafeRawPointer?
        var length = 0
        guard vgn_image_get_blob(pointer, name, &data, &length) != 0, let data, length > 0 else { return nil }
        return Data(bytes: data, count: length)
    }
}
