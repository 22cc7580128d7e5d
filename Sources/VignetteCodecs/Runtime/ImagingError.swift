#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one error every VignetteCodecs call throws.
///
/// `kind` says what went wrong in a way a caller can branch on; `message` is the C library's own
/// words (libvips' error buffer, `heif_error.message`, or the libwebp `VP8StatusCode`), folded onto
/// one line so that it fits a log line or a `vignette: FILE: reason` line.
public struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// No trusted loader recognises the bytes (or the format is blocked as untrusted).
        case unsupportedFormat
        /// The bytes are recognised but damaged.
        case corruptData
        /// The bytes end before the image does, or are damaged in a way libvips can decode past
        /// with `FailOn.none` (what is missing comes out grey).
        case truncatedData
        /// A `DecodingLimits` budget (pixels, bytes, frames) refuses the input, checked from the header.
        case limitExceeded
        /// The encoder for the requested format is not available in this build of the library.
        case encoderUnavailable
        /// Reading or writing a file failed.
        case io
        /// A parameter is out of range (a zero-sized box, a quality of 200, …).
        case invalidArgument
        /// A libvips, libheif or libwebp operation failed for another reason.
        case operationFailed
        /// The work was stopped through an `ImagingCancellation`.
        case cancelled
    }

    /// What went wrong, to branch on.
    public let kind: Kind
    /// The C library's message (or Vignette's), one line.
    public let message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = ImagingError.oneLine(message)
    }

    /// The message.
    public var description: String { message }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { $0.trimmed() }
            .filter { !$0.isEmpty }
            .reduce(into: [String]()) { lines, line in
                if lines.last != line { lines.append(line) }
            }
            .joined(separator: "; ")
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and semicolons (libvips joins messages with "; ").
    func trimmed() -> String {
        let drop: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == ";" }
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }
}
