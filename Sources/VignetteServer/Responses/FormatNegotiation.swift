import Vignette

/// The output format when the URL names none: the best the client's `Accept` header allows,
/// AVIF, then WebP, then JPEG (PNG for images with alpha). A response whose format came from here
/// must carry `Vary: Accept`.
public struct FormatNegotiation: Sendable, Equatable {
    /// Whether the client takes AVIF and WebP (named with a q-value above 0; `*/*` and `image/*`
    /// do not count: browsers name the modern formats they decode).
    public let acceptsAVIF: Bool
    /// Whether the client named WebP.
    public let acceptsWebP: Bool

    /// The choice for an `Accept` header (nil: no header).
    public init(accept: String?) {
        var avif = false, webp = false
        for item in (accept ?? "").split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
            guard let type = parts.first?.lowercased() else { continue }
            let q = parts.dropFirst().compactMap { parameter -> Double? in
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t") }
                return pair.count == 2 && pair[0].lowercased() == "q" ? Double(pair[1]) : nil
            }.first ?? 1
            guard q > 0 else { continue }
            if type == "image/avif" { avif = true }
            if type == "image/webp" { webp = true }
        }
        acceptsAVIF = avif
        acceptsWebP = webp
    }

    /// The pipeline encoding this choice makes, at `quality` (nil: each format's default).
    public func encoding(quality: Int?) -> OutputEncoding {
        if acceptsAVIF { return .fixed(.avif(HEIFOptions(quality: quality ?? 50))) }
        if acceptsWebP { return .fixed(.webp(WebPOptions(quality: quality ?? 80))) }
        return .jpegOrPNG(quality: quality ?? 80)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
