internal import CVignetteImageShims
internal import CVignetteVips

/// Reads libvips' error buffer.
///
/// libvips 8.14 keeps one error buffer for the whole process: the message is taken (copied and
/// cleared, atomically) right after the failing call, but when several threads fail at the same
/// moment a message can reach the wrong caller, or two messages one caller. The error's `kind`
/// is then read from whichever message arrived; that is the limit of what libvips 8.14 offers.
enum VipsErrors {
    static func take() -> String {
        let warning = takeWarning()
        guard let raw = vgn_error_take() else { return warning ?? "libvips gave no message" }
        defer { vgn_free(raw) }
        let text = String(cString: raw)
        if text.isEmpty { return warning ?? "libvips gave no message" }
        return text
    }

    /// Forgets the calling thread's last warning and any stale error, before a new load.
    static func reset() {
        _ = takeWarning()
    }

    private static func takeWarning() -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = vgn_last_warning_take(&buffer, buffer.count)
        guard length > 0 else { return nil }
        let bytes = buffer.prefix(min(length, buffer.count - 1)).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
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
