#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

extension InputFile {
    /// The bytes of the file at `path` within `limits.maxInputBytes` (`read(_:maxBytes:)`), or an
    /// `ImagingError`: `.io` when it cannot be read, `.limitExceeded` when it is over the limit.
    package static func read(_ path: String, limits: DecodingLimits) throws(ImagingError) -> Data {
        do throws(Failure) {
            return try read(path, maxBytes: limits.maxInputBytes)
        } catch {
            throw ImagingError(error)
        }
    }
}

extension ImagingError {
    /// A file that could not be read: `.io` with the failed call's name and `errno` when one
    /// failed, `.limitExceeded` when it was over the limit.
    package init(_ failure: InputFile.Failure) {
        switch failure.kind {
        case .overLimit: self.init(.limitExceeded, failure.message)
        case .unreadable: self.init(.io, failure.message, code: failure.system.map { .system(call: $0.call, errno: $0.code) })
        }
    }
}
