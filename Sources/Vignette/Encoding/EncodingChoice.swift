/// What an autoquality or best-format search (`AutoQualitySearch`) chose for a result: the
/// format, its quality and score, and what the search cost. The server sends it as the
/// `Vignette-Encoding` header; `vignette thumbnail --json` reports it.
public struct EncodingChoice: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The format written.
    public var format: ImageFormat
    /// Its quality; nil for a lossless result or the source's own bytes.
    public var quality: Int?
    /// Whether it is lossless (PNG, lossless WebP).
    public var lossless = false
    /// Its SSIMULACRA 2.1 score against the image before encoding, when the search measured it.
    public var score: Double?
    /// Encodes the search made, every format counted.
    public var encodes = 0
    /// Decodes and SSIMULACRA2 scorings the search made.
    public var scorings = 0
    /// Formats the search tried.
    public var formatsTried = 0
    /// False when the target was out of reach: the max quality did not reach the score, or no
    /// quality fitted the bytes (the smallest result is given).
    public var reachedTarget = true
    /// Whether the answer is the source's own bytes (`BestFormat.passesSourceThrough`).
    public var isSource = false

    /// A choice of `format`.
    public init(format: ImageFormat) {
        self.format = format
    }

    /// `FORMAT; q=Q; score=S; encodes=N; scorings=N; formats=N`, then `lossless`, `source` or
    /// `target=unreached` when they apply.
    public var description: String {
        var parts = [format.rawValue]
        if let quality { parts.append("q=\(quality)") }
        if lossless { parts.append("lossless") }
        if let score { parts.append("score=\((score * 100).rounded() / 100)") }
        parts.append("encodes=\(encodes)")
        parts.append("scorings=\(scorings)")
        parts.append("formats=\(formatsTried)")
        if isSource { parts.append("source") }
        if !reachedTarget { parts.append("target=unreached") }
        return parts.joined(separator: "; ")
    }
}
