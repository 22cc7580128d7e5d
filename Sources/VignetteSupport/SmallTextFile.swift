#if canImport(Glibc)
import Glibc
#endif

/// The package's one reader of small text files the kernel writes (`/proc`, `/sys/fs/cgroup`):
/// a few KiB at most, read whole with one `open` and `InputFile.read(descriptor:count:path:)`.
package enum SmallTextFile {
    /// The most bytes read unless a caller says otherwise.
    package static let defaultMaxBytes = 65536

    /// The contents of `path`, at most `maxBytes` of it (`open` through `systemCall`, then
    /// `InputFile.read`), or nil when it cannot be read.
    package static func read(_ path: String, maxBytes: Int = defaultMaxBytes) -> String? {
        guard let fd = try? systemCall("open", { open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
        defer { _ = try? closeDescriptor(fd) }
        guard let bytes = try? InputFile.read(descriptor: fd, count: maxBytes, path: path) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
