#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DecodingLimits {
    /// `cancellation` (a new one when nil) carrying the render-time limit (`maxRenderSeconds`)
    /// when `data` may be an SVG or a PDF, whose renderers have no limit of their own; else
    /// `cancellation` as it is, so that other images pay nothing for it.
    func renderDeadline(_ cancellation: ImagingCancellation?, for data: Data) -> ImagingCancellation? {
        guard SVGSanitizer.looksLikeSVG(data) || ModuleSniffer.module(for: data) == "poppler" else { return cancellation }
        let watched = cancellation ?? ImagingCancellation()
        watched.stopping(after: maxRenderSeconds)
        return watched
    }
}
