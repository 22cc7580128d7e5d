#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette

/// The process-wide switches the library takes as configuration (`ImagingRuntime`), read from the
/// environment by the command alone, for comparisons: `VIGNETTE_JPEG_FAST_DC=0` turns Vignette's
/// own JPEG decoders off, `VIGNETTE_JPEG_OWN_SCALED=0`/`=1` its reduced-scale ones off or on.
enum RuntimeSwitches {
    static func apply(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let value = environment["VIGNETTE_JPEG_FAST_DC"] { ImagingRuntime.usesOwnJPEGDecoders = value != "0" }
        if let value = environment["VIGNETTE_JPEG_OWN_SCALED"] { ImagingRuntime.usesOwnScaledJPEGDecoder = value != "0" }
    }
}
