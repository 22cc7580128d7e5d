import Vignette
import VignetteSupport

/// The formats a client's `Accept` header names that a recipe without a format may choose (AVIF,
/// WebP; `ImageRecipe.encoding(accepting:)` prefers them in that order, then JPEG, or PNG for
/// images with alpha). A response whose format came from here must carry `Vary: Accept`.
package struct FormatNegotiation: Sendable, Equatable {
    /// The modern formats named with a q-value above 0; `*/*` and `image/*` do not count:
    /// browsers name the modern formats they decode.
    public let accepted: Set<ImageFormat>

    /// Whether the client takes AVIF.
    public var acceptsAVIF: Bool { accepted.contains(.avif) }
    /// Whether the client named WebP.
    public var acceptsWebP: Bool { accepted.contains(.webp) }

    /// The choice for an `Accept` header (nil: no header).
    public init(accept: String?) {
        var accepted: Set<ImageFormat> = []
        for item in (accept ?? "").split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingWhitespace() }
            guard let type = parts.first?.lowercased() else { continue }
            let q = parts.dropFirst().compactMap { parameter -> Double? in
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
                return pair.count == 2 && pair[0].lowercased() == "q" ? Double(pair[1]) : nil
            }.first ?? 1
            guard q > 0 else { continue }
            if type == "image/avif" { accepted.insert(.avif) }
            if type == "image/webp" { accepted.insert(.webp) }
        }
        self.accepted = accepted
    }
}
