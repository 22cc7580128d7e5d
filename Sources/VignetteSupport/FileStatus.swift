#if canImport(Glibc)
import Glibc
#endif

/// What `stat(2)` says of a file: the package's one way to ask (`stat`, `lstat` and `fstat`, each
/// through `systemCall`), so that the kind, size and modification time are read the same way
/// everywhere and a failure carries the call's name and `errno`.
package struct FileStatus: Sendable, Equatable {
    /// What kind of file it is (`st_mode & S_IFMT`).
    package enum Kind: Sendable, Equatable {
        case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, other
    }

    /// The file's kind.
    package let kind: Kind
    /// Its size in bytes (`st_size`).
    package let size: Int
    /// Its modification time: whole seconds since the epoch (`st_mtim.tv_sec`)…
    package let modifiedSeconds: Int
    /// …and the nanoseconds past them (`st_mtim.tv_nsec`).
    package let modifiedNanoseconds: Int

    /// The file at `path` (`stat`, which follows symbolic links; `lstat`, which does not, when
    /// `followingLinks` is false).
    package init(path: String, followingLinks: Bool = true) throws(SystemError) {
        var status = stat()
        if followingLinks {
            try systemCall("stat") { stat(path, &status) }
        } else {
            try systemCall("lstat") { lstat(path, &status) }
        }
        self.init(status)
    }

    /// The file open as `descriptor` (`fstat`).
    package init(descriptor: Int32) throws(SystemError) {
        var status = stat()
        try systemCall("fstat") { fstat(descriptor, &status) }
        self.init(status)
    }

    private init(_ status: stat) {
        kind = switch status.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFIFO: .fifo
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFSOCK: .socket
        case S_IFLNK: .symbolicLink
        default: .other
        }
        size = Int(status.st_size)
        modifiedSeconds = Int(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
    }

    /// The modification time in nanoseconds since the epoch.
    package var modifiedNanosecondsSinceEpoch: Int64 {
        Int64(modifiedSeconds) &* 1_000_000_000 &+ Int64(modifiedNanoseconds)
    }
}
