internal import CVignetteHeif
internal import CVignetteLibraryLoader

/// libheif, opened with dlopen the first time a HEIF or AVIF is read or written
/// (`vgn_heif_load`), not at process start. Every path into libheif calls `load` first.
enum HEIFLibrary {
    /// Opens libheif once per process; a missing library or function is an error of `kind`
    /// naming it (`.unsupportedFormat` for reading, `.encoderUnavailable` for writing).
    static func load(_ kind: ImagingError.Kind) throws(ImagingError) {
        var message = [CChar](repeating: 0, count: 512)
        guard vgn_heif_load(&message, message.count) == 0 else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImagingError(kind, "HEIF and AVIF need libheif: \(text)")
        }
    }
}

/// Names for the libraries' versions, for reports.
enum HEIFVersion {
    /// libheif's own (`heif_get_version`), opening it; "unavailable" when it cannot be opened.
    static var string: String {
        guard (try? HEIFLibrary.load(.unsupportedFormat)) != nil else { return "unavailable" }
        return String(cString: heif_get_version())
    }
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
