#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Vignette
import VignetteHTTP
import VignetteSupport

/// Lines to standard error, one per problem, prefixed as the contract says.
///
/// A problem is always one line, whatever the file is called: control characters in file names
/// and reasons are written as visible escapes (`\n`, `\t`, `\r`, `\x1b`, `\u{202e}` …) by
/// `escaped(_:)`, the one place that does it; every command, the progress bar and the input
/// expansion go through `failureLine(_:_:)`. The escapes are for reading, not for parsing back
/// (a backslash is left as it is): `--json` reports carry the exact names.
enum Console {
    /// `vignette: message` on standard error. `message` is written as it is (it may be several
    /// lines, as a usage error's help is); names from the command line go in through `escaped`.
    static func error(_ message: String) {
        write("vignette: \(message)\n")
    }

    /// `vignette: FILE: reason`, one line.
    static func failed(_ input: String, _ reason: String) {
        write(failureLine(input, reason))
    }

    static func failed(_ input: String, _ error: Error) {
        failed(input, reason(for: error))
    }

    /// `vignette: FILE: reason\n` with both escaped: exactly one line.
    static func failureLine(_ input: String, _ reason: String) -> String {
        "vignette: \(escaped(input)): \(escaped(reason))\n"
    }

    /// The text of a failure: an `ImagingError`'s, `CommandFailure`'s or `HTTPLoadingError`'s
    /// message (the HTTP status, the limit or the network problem); for a pipeline failure, that
    /// of the error underneath; else the error as text.
    static func reason(for error: Error) -> String {
        switch error {
        case let error as ImagingError: error.message
        case let error as CommandFailure: error.message
        case let error as HTTPLoadingError: error.message
        case ImagePipelineError.cancelled, is CancellationError: "interrupted before the download finished"
        case ImagePipelineError.dataLoadingFailed(let error): reason(for: error)
        case let error as ImagePipelineError: error.imagingError?.message ?? "\(error)"
        default: "\(error)"
        }
    }

    /// `text` with every character that could break a line, move the cursor or reorder what is
    /// shown (C0 and C1 controls, DEL, line and paragraph separators, bidirectional overrides)
    /// written as a visible escape.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value <= 0xFF:
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1 (NEL, CSI …)
        case 0x2028, 0x2029: return true  // line and paragraph separators
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional marks and overrides
        default: return false
        }
    }

    /// write(2) on descriptor 2 (through `systemCall`, again after `EINTR`): one call per line, so
    /// lines from parallel work never interleave. Best effort: standard error has nowhere to report
    /// its own failure.
    static func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { buffer in try? systemCall("write") { Glibc.write(STDERR_FILENO, buffer.baseAddress, buffer.count) } }
    }
}

/// A failure of the command itself (not of one input), told in one sentence that names the path
/// and the system's reason, e.g. `cannot create folder /ro/out: Read-only file system`. Unlike
/// `ImagingError` its message is kept exactly as made (names are escaped when printed).
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
