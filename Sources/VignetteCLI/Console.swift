import Foundation
import VignetteCodecs

/// Lines to standard error, one per problem, prefixed as the contract says.
enum Console {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("vignette: \(message)\n".utf8))
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
