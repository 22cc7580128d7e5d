#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads image files within a byte budget: the size is checked with `fstat` before any byte is
/// read, and failures carry the system's own reason (`strerror`).
public enum InputFile {
    /// The bytes of the file at `path`, or `.io` (missing, a directory, unreadable) or
    /// `.limitExceeded` (over `limits.maxInputBytes`).
    public static func read(_ path: String, limits: DecodingLimits) throws(ImagingError) -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ImagingError(.io, "cannot open \(path): \(systemReason())") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ImagingError(.io, "cannot read \(path): \(systemReason())") }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw ImagingError(.io, "\(path) is a directory") }
        let size = Int(status.st_size)
        try limits.checkBytes(size)
        var data = Data(count: size)
        var filled = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while filled < size {
                let count = Glibc.read(descriptor, base + filled, size - filled)
                if count > 0 {
                    filled += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if failure != 0 { throw ImagingError(.io, "cannot read \(path): \(String(cString: strerror(failure)))") }
        // A file that shrank while being read gives what was there.
        if filled < size { data.removeSubrange(filled..<size) }
        return data
    }

    static func systemReason() -> String { String(cString: strerror(errno)) }
}
