import Foundation
import Vignette

enum Runtime {
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
