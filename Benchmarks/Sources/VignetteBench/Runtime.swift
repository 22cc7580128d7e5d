import Foundation
import Vignette

enum Runtime {
    /// The JPEG decoder switches, `VIGNETTE_JPEG_FAST_DC=0` and `VIGNETTE_JPEG_OWN_SCALED=0`/`=1`,
    /// as the library's configuration (`ImagingRuntime.usesOwnJPEGDecoders`, `usesOwnScaledJPEGDecoder`).
    static func applyJPEGDecoderSwitches() {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment["VIGNETTE_JPEG_FAST_DC"] { ImagingRuntime.usesOwnJPEGDecoders = value != "0" }
        if let value = environment["VIGNETTE_JPEG_OWN_SCALED"] { ImagingRuntime.usesOwnScaledJPEGDecoder = value != "0" }
    }

    /// Applies `VIGNETTE_THREADS` (libvips threads per image) when set; returns the count in use.
    static func applyThreadSetting() throws(UsageError) -> Int {
        if let text = ProcessInfo.processInfo.environment["VIGNETTE_THREADS"], !text.isEmpty {
            guard let threads = Int(text), threads >= 1 else {
                throw UsageError("VIGNETTE_THREADS must be a positive integer, got \(text)")
            }
            ImagingRuntime.threadsPerImage = threads
        }
        return ImagingRuntime.threadsPerImage
    }
}
