#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The package's one way to write a file that no reader ever sees half-written: the bytes go to a
/// new temporary file beside it (`open(2)` with `O_CREAT | O_EXCL | O_NOFOLLOW`), which is then
/// renamed over the final name (`rename(2)`). Used for the CLI's outputs and the disk cache's
/// entries; each caller names its temporary files (the cache sweeps its own).
package enum AtomicFile {
    /// Which step failed, and the system's errno.
    package struct Failure: Error {
        package enum Step: Sendable { case create, write, rename }
        package let step: Step
        package let code: Int32
        package var reason: String { SystemError.reason(for: code) }
    }

    /// Writes `parts`, one after the other, to `temporary` and renames it to `path`. On failure the
    /// temporary file is removed and the failure returned; `path` is then untouched.
    package static func write(_ parts: [Data], to path: String, through temporary: String) -> Failure? {
        let descriptor: Int32
        do throws(SystemError) {
            descriptor = try systemCall("open") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644) }
        } catch {
            return Failure(step: .create, code: error.code)
        }
        var code: Int32 = 0
        for part in parts where code == 0 { code = writeAll(part, to: descriptor) }
        do throws(SystemError) { try closeDescriptor(descriptor) } catch { if code == 0 { code = error.code } }
        var failure = code == 0 ? nil : Failure(step: .write, code: code)
        if failure == nil {
            do throws(SystemError) { try systemCall("rename") { rename(temporary, path) } } catch {
                failure = Failure(step: .rename, code: error.code)
            }
        }
        if failure != nil { _ = try? systemCall("unlink") { unlink(temporary) } }
        return failure
    }

    /// `write(2)` until every byte is written (through `systemCall`); 0, or the errno that stopped
    /// it (EIO when the system wrote nothing and gave no reason).
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
        data.withUnsafeBytes { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            var written = 0
            while written < buffer.count {
                do throws(SystemError) {
                    let count = try systemCall("write") { Glibc.write(descriptor, base + written, buffer.count - written) }
                    if count == 0 { return EIO }
                    written += count
                } catch {
                    return error.code
                }
            }
            return 0
        }
    }
}
