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

    /// Creates the folder `path` and its missing parents (`Folder.create`, mode 0777 less the
    /// umask); nothing to do when it is a folder already. The failure names the folder that could
    /// not be made (`path` or one of its parents).
    static func makeDirectory(_ path: String) throws(CommandFailure) {
        do throws(Folder.CreationFailure) {
            try Folder.create(path)
        } catch {
            throw CommandFailure("cannot create folder \(error.folder): \(error.reason)")
        }
    }

    /// The file's size in bytes, 0 when it cannot be read.
    static func size(_ path: String) -> Int {
        (try? FileStatus(path: path))?.size ?? 0
    }

    /// Whether something is at `path` (`stat` succeeds).
    static func exists(_ path: String) -> Bool {
        (try? FileStatus(path: path)) != nil
    }
}
