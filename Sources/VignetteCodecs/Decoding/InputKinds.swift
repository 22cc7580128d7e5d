/// Kinds of input read by large C libraries that libvips itself marks untrusted, let in on purpose
/// (`DecodingLimits.allowedInputs`): the one place a caller says which of them it takes.
///
/// The library and the `vignette` commands take them all by default; `vignette serve` takes none
/// unless its operator allows each (`--allow-pdf`, `--allow-video`), and refuses the others with 415.
public struct InputKinds: OptionSet, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The bits.
    public let rawValue: Int
    /// Kinds from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// PDF pages, rendered by poppler (libvips' `pdfload`).
    public static let pdf = InputKinds(rawValue: 1 << 0)
    /// Video posters, decoded by FFmpeg (the Video trait; `ImageFormat.videoFormats`).
    public static let video = InputKinds(rawValue: 1 << 1)

    /// Every kind this build knows.
    public static let all: InputKinds = [.pdf, .video]

    /// The names of the kinds, e.g. "pdf".
    public var description: String {
        var names: [String] = []
        if contains(.pdf) { names.append("pdf") }
        if contains(.video) { names.append("video") }
        return names.joined(separator: ",")
    }

    /// The kind `format` belongs to, or nil for a format everyone may read.
    static func of(_ format: ImageFormat) -> InputKinds? {
        switch format {
        case .pdf: .pdf
        case _ where format.isVideo: .video
        default: nil
        }
    }
}
