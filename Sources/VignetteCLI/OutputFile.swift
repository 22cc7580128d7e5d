#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Vignette

/// Writes output files so that a reader never sees a partial one: the bytes go to a hidden
/// temporary file in the destination folder, which is renamed over the final name.
enum OutputFile {
    static func write(_ data: Data, to path: String) throws(ImagingError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let temporary = "\(folder)/.\(name).\(getpid())-\(UInt32.random(in: 0...UInt32.max)).partial"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ImagingError(.io, "cannot write \(path): \(reason())") }
        var written = 0
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while written < buffer.count {
                let count = Glibc.write(descriptor, base + written, buffer.count - written)
                if count >= 0 {
                    written += count
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw ImagingError(.io, "cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }

    /// Creates `path` (and its parents) when missing; fails when it is a file.
    static func makeDirectory(_ path: String) throws(ImagingError) {
        if isDirectory(path) { return }
        if exists(path) { throw ImagingError(.io, "\(path) exists and is not a directory") }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ImagingError(.io, "cannot create \(path): \(error)")
        }
    }

    /// The file's size in bytes, 0 when it cannot be read.
    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
