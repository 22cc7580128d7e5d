#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

/// The one error every VignetteCodecs call throws.
///
/// `kind` says what went wrong in a way a caller can branch on; `message` is the C library's own
/// words (libvips' error buffer, `heif_error.message`, TurboJPEG's `tjGetErrorStr2`, libwebp's
/// `WebPEncodingError`, or the system's `strerror`), folded onto one line so that it fits a log
/// line or a `vignette: FILE: reason` line; `code` is the library's own code beside it, when it
/// gave one (`errno`, `heif_error.code` and `subcode`, `tjGetErrorCode`, `WebPEncodingError`,
/// `WebPMuxError`).
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

    /// The code a C library or a system call gave with its message.
    public enum Code: Sendable, Hashable {
        /// A system call failed: its name ("open", "read") and the `errno` it set.
        case system(call: String, errno: Int32)
        /// libheif failed: `heif_error.code` and `heif_error.subcode`.
        case libheif(code: Int32, subcode: Int32)
        /// TurboJPEG failed: `tjGetErrorCode` (`TJERR_WARNING` 0: a warning stopped the work;
        /// `TJERR_FATAL` 1: an error).
        case turboJPEG(Int32)
        /// libwebp failed to encode: the picture's `WebPEncodingError`.
        case libwebp(Int32)
        /// libwebpmux failed to assemble a file (an animation, a profile's chunk): its
        /// `WebPMuxError` (`WEBP_MUX_INVALID_ARGUMENT` -1, `WEBP_MUX_BAD_DATA` -2, …).
        case libwebpmux(Int32)
        /// The input is of an opt-in kind (PDF) that `DecodingLimits.allowedInputs` leaves out.
        case inputNotAllowed(InputKinds)
    }

    /// What went wrong, to branch on.
    public let kind: Kind
    /// The C library's message (or Vignette's), one line.
    public let message: String
    /// The C library's own code for the failure, when it gave one (libvips gives none).
    public let code: Code?

    /// An error of `kind` saying `message`, with the library's `code` when there is one.
    public init(_ kind: Kind, _ message: String, code: Code? = nil) {
        self.kind = kind
        self.message = ImagingError.oneLine(message)
        self.code = code
    }

    /// The message.
    public var description: String { message }

    /// `.io` for a failed system call: `context` ("cannot read FILE") and the system's reason,
    /// with the call's name and `errno` kept as `Code.system`.
    package init(_ error: SystemError, _ context: String) {
        self.init(.io, "\(context): \(error.reason)", code: .system(call: error.call, errno: error.code))
    }

    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { String($0.trimmingWhitespace(and: [";"])) }
            .filter { !$0.isEmpty }
            .reduce(into: [String]()) { lines, line in
                if lines.last != line { lines.append(line) }
            }
            .joined(separator: "; ")
    }
}
