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
    /// `cachebuster`: a new value is a new result (keys, ETag), made again from a fresh source.
    var cacheBuster: String?
}

extension ImageOrder {
    /// `request` with the cache buster in its image id, so that every cache and every coalescing
    /// of equal work (the source's load, the decode, the encoded result) and the ETag tell it apart
    /// from the same image under another cache buster.
    func busted(_ request: ImageRequest) -> ImageRequest {
        guard let cacheBuster else { return request }
        var busted = request
        busted.imageID = request.effectiveImageID + "#cachebuster=" + cacheBuster
        return busted
    }
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
