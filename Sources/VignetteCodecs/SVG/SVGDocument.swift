#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// SVG as an output: the source document itself, sanitised (imgproxy's `f:svg` for an SVG source).
package enum SVGDocument {
    /// `data` sanitised as every SVG is before librsvg sees it (`SVGSanitizer`: no scripts, event
    /// attributes or references outside the document; bounded size, elements, nesting and entity
    /// expansion), with its nominal size from librsvg's header read (libvips' `svgload`).
    /// `.unsupportedFormat` when `data` is not an SVG document: SVG is written for SVG sources only.
    public static func sanitized(_ data: Data, limits: DecodingLimits = .untrusted) throws(ImagingError) -> (data: Data, size: PixelSize) {
        let source = try LoadedSource(data: data, limits: limits)
        guard source.format == .svg else {
            throw ImagingError(.unsupportedFormat, "SVG is written for SVG sources only, and this source is \(source.format)")
        }
        let header = try source.load(failOn: .none)
        return (source.data, PixelSize(width: header.width, height: header.height))
    }
}
