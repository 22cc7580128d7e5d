#if canImport(Glibc)
import Glibc
#endif

/// What tells one version of a file from the next without reading it: its size and modification
/// time (nanoseconds), from `stat(2)`.
enum FileIdentity {
    /// "#<size>-<mtime seconds>.<nanoseconds>", or "" when the file cannot be stat'ed.
    static func suffix(_ path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "" }
        return "#\(status.st_size)-\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
    }
}
