import Vignette

/// What an image URL asks for, once parsed and checked: the source, the thumbnail to make and
/// the output format (nil: negotiated from `Accept`).
struct ImageOrder: Sendable {
    /// `local:///…` or an http(s) URL, as the URL gave it.
    var source: String
    /// The resize, crop and blur; nil serves the image at its own size (upright).
    var thumbnail: ThumbnailOptions?
    /// Steps after the thumbnail (a background to flatten onto).
    var processors: [any ImageProcessing] = []
    /// The format the URL names (extension or `format`); nil to negotiate.
    var format: ImageFormat?
    /// 1–100; nil for each format's default.
    var quality: Int?
}

extension ImageOrder {
    /// The pipeline's encoding: the format asked for, else the negotiated one (then the
    /// response varies with `Accept`).
    func encoding(accept: String?) throws(ServerFailure) -> (encoding: OutputEncoding, negotiated: Bool) {
        guard let format else { return (FormatNegotiation(accept: accept).encoding(quality: quality), true) }
        guard let encoding = EncodingFormat.default(for: format, quality: quality) else {
            throw ServerFailure(status: 415, "this server cannot write \(format)")
        }
        return (.fixed(encoding), false)
    }
}
