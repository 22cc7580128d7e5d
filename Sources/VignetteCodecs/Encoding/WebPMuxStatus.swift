internal import CVignetteWebP

/// libwebpmux's status (`WebPMuxError`) as an `ImagingError`: the one place its codes are read,
/// for the animated WebP muxer and the ICC profile's chunk alike.
enum WebPMuxStatus {
    /// Nothing for `WEBP_MUX_OK`; otherwise `.operationFailed` naming `call` and the status, which
    /// is kept as `ImagingError.Code.libwebpmux`.
    static func check(_ status: WebPMuxError, _ call: String) throws(ImagingError) {
        guard status != WEBP_MUX_OK else { return }
        let name = switch status {
        case WEBP_MUX_NOT_FOUND: "WEBP_MUX_NOT_FOUND"
        case WEBP_MUX_INVALID_ARGUMENT: "WEBP_MUX_INVALID_ARGUMENT"
        case WEBP_MUX_BAD_DATA: "WEBP_MUX_BAD_DATA"
        case WEBP_MUX_MEMORY_ERROR: "WEBP_MUX_MEMORY_ERROR"
        case WEBP_MUX_NOT_ENOUGH_DATA: "WEBP_MUX_NOT_ENOUGH_DATA"
        default: "WebPMuxError \(status.rawValue)"
        }
        throw ImagingError(.operationFailed, "\(call) failed: \(name)", code: .libwebpmux(Int32(status.rawValue)))
    }
}
