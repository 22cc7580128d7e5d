#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Vignette

/// Lines to standard error, one per problem, prefixed as the contract says.
enum Console {
    static func error(_ message: String) {
        let line = Array("vignette: \(message)\n".utf8)
        // write(2) on descriptor 2: one call per line, so lines from parallel work never interleave.
        _ = line.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// `vignette: FILE: reason`
    static func failed(_ input: String, _ reason: String) {
        error("\(input): \(reason)")
    }

    static func failed(_ input: String, _ error: Error) {
        failed(input, (error as? ImagingError)?.message ?? "\(error)")
    }
}

/// Raised for inputs that fail; carries nothing, the reason is printed where it happened.
struct SomeInputsFailed: Error {}
