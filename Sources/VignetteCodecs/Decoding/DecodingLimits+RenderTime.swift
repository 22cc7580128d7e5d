#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DecodingLimits {
    /// `cancellation` (a new one when nil) carrying the render-time limit (`maxRenderSeconds`)
    /// when `data` may be an SVG (gzip-compressed too) or a PDF, whose renderers have no limit of
    /// their own; else `cancellation` as it is, so that other images pay nothing for it.
    func renderDeadline(_ cancellation: ImagingCancellation?, for data: Data) -> ImagingCancellation? {
        let gzip = data.starts(with: [0x1F, 0x8B])
        guard gzip || SVGSanitizer.looksLikeSVG(data) || ModuleSniffer.module(for: data) == "poppler" else { return cancellation }
        let watched = cancellation ?? ImagingCancellation()
        watched.stopping(after: maxRenderSeconds)
        return watched
    }
}
