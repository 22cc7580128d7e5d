internal import CVignetteHeif

/// Names for the libraries' versions, for reports.
enum HEIFVersion {
    static var string: String { String(cString: heif_get_version()) }
}

extension ImagingError {
    /// Wraps a `heif_error` when it is not `heif_error_Ok`: its message, and its code and subcode
    /// beside it (`Code.libheif`).
    static func checkHEIF(_ error: heif_error, _ what: String, encoding: Bool = false) throws(ImagingError) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "unknown libheif error"
        let kind: Kind
        switch error.code {
        case heif_error_Unsupported_filetype: kind = .unsupportedFormat
        case heif_error_Unsupported_feature: kind = encoding ? .encoderUnavailable : .unsupportedFormat
        case heif_error_Invalid_input, heif_error_Decoder_plugin_error: kind = .corruptData
        case heif_error_Encoder_plugin_error: kind = .operationFailed
        case heif_error_Usage_error: kind = .invalidArgument
        default: kind = .operationFailed
        }
        throw ImagingError(kind, "\(what): \(message)", code: .libheif(code: Int32(error.code.rawValue), subcode: Int32(error.subcode.rawValue)))
    }
}
