#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
/// Reads image files within a byte budget, without ever blocking on what is not a regular file.
///
/// - A regular file: its size is checked with `fstat` before any byte is read.
/// - A pipe (a named FIFO, `/dev/stdin` fed by a pipe, a shell's `<(command)`): read as a stream
///   until its end, refused as soon as it gives more than `maxInputBytes`. A named FIFO that no
///   writer holds open when it is read is refused at once ("no writer") rather than waited for: a
///   writer already blocked in its own `open` counts as connected. A writer that stays connected but
///   sends nothing for `pipeIdleTimeout` seconds ends the read with an error.
/// - Directories, character devices (`/dev/zero`, a terminal), block devices and sockets are
///   refused with the kind named; they are recognised with `stat` before being opened (opening a
///   device can have effects), and again with `fstat` on what was really opened.
///
/// The file is opened with `O_NONBLOCK` (so `open` of a FIFO without writer returns at once;
/// cleared again for regular files) and `O_NOCTTY`. Failures carry the system's own reason (`strerror`)
/// and the failing call's name and `errno` (`SystemError`). VignetteCodecs reads with a
/// `DecodingLimits` and turns a `Failure` into an `ImagingError`.
package enum InputFile {
    /// Why a file could not be read.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package enum Kind: Sendable {
            /// Missing, unreadable, not a regular file or a pipe, a pipe with no writer or a silent one.
            case unreadable
            /// More bytes than allowed.
            case overLimit
        }

        package let kind: Kind
        /// One line that says what failed, with the system's reason when a call failed.
        package let message: String
        /// The system call that failed, when one did.
        package let system: SystemError?

        init(_ kind: Kind, _ message: String, system: SystemError? = nil) {
            self.kind = kind
            self.message = message
            self.system = system
        }

        /// A failed system call: "context: reason".
        init(_ system: SystemError, _ context: String) {
            self.init(.unreadable, "\(context): \(system.reason)", system: system)
        }

        package var description: String { message }
    }

    /// Seconds a connected pipe may stay silent before the read gives up (the HTTP loader's read timeout too).
    package static let pipeIdleTimeout: Int32 = 30

    /// Room reserved for the first bytes of a stream; it doubles as more arrive.
    static let streamChunk = 64 << 10

    /// The bytes of the file at `path`, or a `Failure`: `.unreadable` (missing, unreadable, not a
    /// regular file or a pipe, a pipe with no writer or a silent one) or `.overLimit` (over `maxBytes`).
    package static func read(_ path: String, maxBytes: Int) throws(Failure) -> Data {
        let named: FileStatus
        do throws(SystemError) { named = try FileStatus(path: path) } catch { throw Failure(error, "cannot open \(path)") }
        try refuseUnreadableKind(named, path: path)

        let descriptor: Int32
        do throws(SystemError) {
            descriptor = try systemCall("open") { open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        } catch {
            throw Failure(error, "cannot open \(path)")
        }
        defer { _ = try? closeDescriptor(descriptor) }
        let status: FileStatus
        do throws(SystemError) { status = try FileStatus(descriptor: descriptor) } catch { throw Failure(error, "cannot read \(path)") }
        // It may have been replaced between stat and open: what was opened decides.
        try refuseUnreadableKind(status, path: path)

        if status.kind == .fifo {
            return try readStream(descriptor: descriptor, maxBytes: maxBytes, path: path)
        }
        // A regular file: blocking reads again (O_NONBLOCK means nothing to most file systems, but
        // some honour it).
        do throws(SystemError) {
            let flags = try systemCall("fcntl") { fcntl(descriptor, F_GETFL) }
            try systemCall("fcntl") { fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        } catch {
            throw Failure(error, "cannot read \(path)")
        }
        let size = status.size
        if size > maxBytes { throw Failure(.overLimit, "input is \(size) bytes, over the limit of \(maxBytes)") }
        return try read(descriptor: descriptor, count: size, path: path)
    }

    /// Up to `count` bytes from an open descriptor (`read(2)` through `systemCall`); fewer when the
    /// file ends first (it shrank while being read).
    package static func read(descriptor: Int32, count: Int, path: String) throws(Failure) -> Data {
        try read(descriptor: descriptor, upTo: max(0, count), reserving: max(0, count), path: path).data
    }

    // MARK: - Private

    /// Regular files and pipes pass; everything else is refused with what it is.
    private static func refuseUnreadableKind(_ status: FileStatus, path: String) throws(Failure) {
        let kind: String
        switch status.kind {
        case .regular, .fifo: return
        case .directory: throw Failure(.unreadable, "\(path) is a directory")
        case .characterDevice: kind = "a character device"
        case .blockDevice: kind = "a block device"
        case .socket: kind = "a socket"
        case .symbolicLink, .other: kind = "not a file that can be read"
        }
        throw Failure(.unreadable, "\(path) is \(kind), not a regular file")
    }

    /// A pipe read to its end, or refused: nothing connected, silent too long, or over the limit.
    private static func readStream(descriptor: Int32, maxBytes: Int, path: String) throws(Failure) -> Data {
        // One byte past the budget tells "over it" from "exactly at it".
        let limit = maxBytes == .max ? .max : max(0, maxBytes) + 1
        let (data, endedAtOnce) = try read(
            descriptor: descriptor, upTo: limit, reserving: min(limit, streamChunk), path: path, idleTimeout: pipeIdleTimeout)
        if endedAtOnce {
            throw Failure(.unreadable, "\(path) is a pipe (FIFO) with no writer or nothing in it, not a regular file")
        }
        if data.count > maxBytes {
            throw Failure(.overLimit, "input from the pipe is over the limit of \(maxBytes) bytes")
        }
        return data
    }

    /// The one read loop: `read(2)` (through `systemCall`, which retries EINTR) until the end of
    /// the file or `limit` bytes.
    /// The buffer starts at `reserving` bytes and doubles when full (a stream's size is unknown).
    /// On a non-blocking descriptor with nothing to read yet, waits with `poll(2)`, at most
    /// `idleTimeout` seconds at a time. `endedAtOnce` is true when the end came before any byte and
    /// without any wait (a pipe: no writer connected).
    private static func read(
        descriptor: Int32, upTo limit: Int, reserving: Int, path: String, idleTimeout: Int32 = 0
    ) throws(Failure) -> (data: Data, endedAtOnce: Bool) {
        var data = Data(count: min(limit, reserving))
        var filled = 0
        var waited = false
        var endedAtOnce = false
        var failure: SystemError?
        while filled < limit {
            if filled == data.count {
                // Grow by doubling, never past the limit.
                let room = limit - data.count
                data.count += min(room, max(data.count, streamChunk))
            }
            let (got, error) = data.withUnsafeMutableBytes { buffer -> (Int, SystemError?) in
                guard let base = buffer.baseAddress else { return (0, nil) }
                do throws(SystemError) {
                    return (try systemCall("read") { Glibc.read(descriptor, base + filled, buffer.count - filled) }, nil)
                } catch {
                    return (-1, error)
                }
            }
            if got > 0 {
                filled += got
            } else if got == 0 {
                endedAtOnce = filled == 0 && !waited
                break
            } else if let error, error.code == EAGAIN || error.code == EWOULDBLOCK {
                guard idleTimeout > 0 else { failure = error; break }
                waited = true
                if let waitFailure = waitForInput(descriptor: descriptor, seconds: idleTimeout) {
                    if waitFailure.code == ETIMEDOUT {
                        throw Failure(
                            .unreadable, "cannot read \(path): nothing came through the pipe for \(idleTimeout) s", system: waitFailure)
                    }
                    failure = waitFailure
                    break
                }
            } else {
                failure = error
                break
            }
        }
        if let failure { throw Failure(failure, "cannot read \(path)") }
        if filled < data.count { data.removeSubrange(filled..<data.count) }
        return (data, endedAtOnce)
    }

    /// nil once the descriptor has something to read (or its end, or an error to report through
    /// `read`); ETIMEDOUT after `seconds` of nothing; `poll`'s own failure when it fails.
    private static func waitForInput(descriptor: Int32, seconds: Int32) -> SystemError? {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        do throws(SystemError) {
            return try systemCall("poll") { poll(&request, 1, seconds * 1000) } > 0 ? nil : SystemError("poll", code: ETIMEDOUT)
        } catch {
            return error
        }
    }
}
