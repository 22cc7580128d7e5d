#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Vignette
import VignetteSupport

/// Writes output files so that a reader never sees a partial one (`AtomicFile`): the bytes go to a
/// hidden temporary file in the destination folder, which is renamed over the final name.
///
/// Every failure is one `CommandFailure` sentence naming the path and the system's reason
/// (`strerror`): `cannot write /out/a.jpg: No space left on device`,
/// `cannot create folder /ro/out: Read-only file system`.
enum OutputFile {
    static func write(_ data: Data, to path: String) throws(CommandFailure) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        // Short whatever the output's name is, so it never goes past NAME_MAX where the final name does not.
        let temporary = "\(folder).vignette-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).partial"
        if let failure = AtomicFile.write([data], to: path, through: temporary) {
            throw CommandFailure("cannot write \(path): \(failure.reason)")
        }
    }

    /// Creates the folder `path` and its missing parents (mkdir(2), mode 0777 less the umask);
    /// nothing to do when it is a folder already. The failure names the folder that could not be
    /// made (`path` or one of its parents).
    static func makeDirectory(_ path: String) throws(CommandFailure) {
        if isDirectory(path) { return }
        if let (folder, code) = makeDirectoryAndParents(path) {
            let reason = code == EEXIST ? "it exists and is not a folder" : SystemError.reason(for: code)
            throw CommandFailure("cannot create folder \(folder): \(reason)")
        }
    }

    /// nil once `path` is a folder, else the folder that could not be made and the errno why
    /// (EEXIST: something other than a folder is there).
    private static func makeDirectoryAndParents(_ path: String) -> (String, Int32)? {
        if mkdir(path, 0o777) == 0 { return nil }
        let code = errno
        switch code {
        case EEXIST:
            return isDirectory(path) ? nil : (path, EEXIST)
        case ENOENT:
            // A parent is missing: make it, then try again.
            var trimmed = Substring(path)
            while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            guard let slash = trimmed.lastIndex(of: "/"), slash > trimmed.startIndex else { return (path, ENOENT) }
            if let failure = makeDirectoryAndParents(String(trimmed[..<slash])) { return failure }
            if mkdir(path, 0o777) == 0 { return nil }
            let again = errno
            return again == EEXIST && isDirectory(path) ? nil : (path, again)
        default:
            return (path, code)
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

    private static func reason() -> String { SystemError.reason(for: errno) }
}
