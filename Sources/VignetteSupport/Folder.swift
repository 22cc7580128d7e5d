#if canImport(Glibc)
import Glibc
#endif

/// The package's one way to ask whether a path is a folder, to make one with its parents
/// (`mkdir -p`) and to list one, each through `FileStatus` and `systemCall`.
package enum Folder {
    /// Why a folder could not be made: the folder (the one asked for, or one of its parents) and
    /// the failed `mkdir(2)`; `EEXIST` when something other than a folder is there.
    package struct CreationFailure: Error, Sendable, Equatable {
        /// The folder that could not be made.
        package let folder: String
        /// The `mkdir` that failed, with its `errno`.
        package let system: SystemError

        /// The system's reason, or "it exists and is not a folder" for `EEXIST`.
        package var reason: String { system.code == EEXIST ? "it exists and is not a folder" : system.reason }
    }

    /// Whether `path` is a folder (a symbolic link to one counts); false when it cannot be
    /// `stat`ed.
    package static func exists(_ path: String) -> Bool {
        (try? FileStatus(path: path))?.kind == .directory
    }

    /// Makes the folder `path` and its missing parents (`mkdir(2)` with `mode`, less the umask);
    /// nothing to do when it is a folder already.
    package static func create(_ path: String, mode: mode_t = 0o777) throws(CreationFailure) {
        if exists(path) { return }
        do throws(SystemError) {
            try systemCall("mkdir") { mkdir(path, mode) }
        } catch {
            switch error.code {
            case EEXIST:
                if !exists(path) { throw CreationFailure(folder: path, system: error) }
            case ENOENT:
                // A parent is missing: make it, then try again.
                var trimmed = Substring(path)
                while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
                guard let slash = trimmed.lastIndex(of: "/"), slash > trimmed.startIndex else {
                    throw CreationFailure(folder: path, system: error)
                }
                try create(String(trimmed[..<slash]), mode: mode)
                do throws(SystemError) {
                    try systemCall("mkdir") { mkdir(path, mode) }
                } catch {
                    if error.code != EEXIST || !exists(path) { throw CreationFailure(folder: path, system: error) }
                }
            default:
                throw CreationFailure(folder: path, system: error)
            }
        }
    }

    /// The names in the folder `path` (`opendir`, `readdir`, `closedir`), `.` and `..` left out,
    /// in the order the file system gives them.
    package static func names(in path: String) throws(SystemError) -> [String] {
        let stream = try systemCall("opendir", pointer: { opendir(path) })
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            // readdir gives nil at the end and on failure alike: errno tells them apart.
            errno = 0
            guard let item = readdir(stream) else {
                if errno != 0 { throw SystemError("readdir", code: errno) }
                return names
            }
            let name = withUnsafePointer(to: &item.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }
}
