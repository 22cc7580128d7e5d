internal import CImageShims
internal import CVips

/// Reads libvips' error buffer. The buffer is global to the process, so the message is taken
/// (copied and cleared) right after the failing call.
enum VipsErrors {
    static func take() -> String {
        guard let raw = vgn_error_take() else { return "unknown libvips error" }
        defer { vgn_free(raw) }
        let text = String(cString: raw)
        return text.isEmpty ? "unknown libvips error" : text
    }

    /// An error for a failed load or pixel read, classified from libvips' message.
    static func decodingError(_ context: String = "") -> ImagingError {
        let message = take()
        let full = context.isEmpty ? message : "\(context): \(message)"
        return ImagingError(classifyDecoding(message), full)
    }

    static func classifyDecoding(_ message: String) -> ImagingError.Kind {
        let lower = message.lowercased()
        if lower.contains("not a known") || lower.contains("is not in a known format")
            || lower.contains("unsupported") || lower.contains("untrusted") || lower.contains("no known")
        {
            return .unsupportedFormat
        }
        if lower.contains("premature end") || lower.contains("truncated") || lower.contains("unexpected end")
            || lower.contains("end of file") || lower.contains("not enough data") || lower.contains("out of data")
        {
            return .truncatedData
        }
        return .corruptData
    }

    /// An error for a failed operation (resize, save, …).
    static func operationError(_ what: String) -> ImagingError {
        ImagingError(.operationFailed, "\(what): \(take())")
    }
}
