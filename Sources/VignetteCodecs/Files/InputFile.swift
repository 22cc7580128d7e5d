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
        return try read(descriptor: descriptor, count: size, path: path)
    }

    /// Up to `count` bytes from an open descriptor (`read(2)`, retried on EINTR); fewer when the
    /// file ends first (it shrank while being read).
    public static func read(descriptor: Int32, count: Int, path: String) throws(ImagingError) -> Data {
        var data = Data(count: count)
        var filled = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while filled < count {
                let got = Glibc.read(descriptor, base + filled, count - filled)
                if got > 0 {
                    filled += got
                } else if got == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if failure != 0 { throw ImagingError(.io, "cannot read \(path): \(String(cString: strerror(failure)))") }
        if filled < count { data.removeSubrange(filled..<count) }
        return data
    }

    static func systemReason() -> String { String(cString: strerror(errno)) }
}
