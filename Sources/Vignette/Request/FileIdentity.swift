import VignetteSupport

/// What tells one version of a file from the next without reading it: its size and modification
/// time (nanoseconds), from `stat(2)`.
enum FileIdentity {
    /// "#<size>-<mtime seconds>.<nanoseconds>", or "" when the file cannot be stat'ed.
    static func suffix(_ path: String) -> String {
        guard let status = try? FileStatus(path: path) else { return "" }
        return "#\(status.size)-\(status.modifiedSeconds).\(status.modifiedNanoseconds)"
    }
}
