#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed: its name and `errno`, with the system's own words for it.
package struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call, e.g. "open" or "write".
    package let call: String
    /// The `errno` it set.
    package let code: Int32

    /// A failure of `call` with `code`.
    package init(_ call: String, code: Int32) {
        self.call = call
        self.code = code
    }

    /// The system's reason (`strerror`).
    package var reason: String { Self.reason(for: code) }

    /// The system's words for `code` (`strerror`): the one place they are read.
    package static func reason(for code: Int32) -> String { String(cString: strerror(code)) }

    /// "call: reason".
    package var description: String { "\(call): \(reason)" }
}

/// The package's one funnel for system calls (as swift-nio's `syscall`): runs `body` again while
/// it fails with `EINTR`, and turns any other failure (a negative result) into a `SystemError`
/// naming `call` with the `errno` it left. Returns the call's non-negative result.
@discardableResult
package func systemCall<Result: BinaryInteger>(_ call: String, _ body: () -> Result) throws(SystemError) -> Result {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code != EINTR { throw SystemError(call, code: code) }
    }
}

/// `systemCall` for a call that gives a pointer, nil when it fails (`opendir`): run again while it
/// fails with `EINTR`, any other failure thrown as a `SystemError` naming `call`.
package func systemCall<Pointer>(_ call: String, pointer body: () -> Pointer?) throws(SystemError) -> Pointer {
    while true {
        if let result = body() { return result }
        let code = errno
        if code != EINTR { throw SystemError(call, code: code) }
    }
}

/// `close(2)`, the one exception to the funnel's retry: on Linux the descriptor is released even
/// when `close` fails with `EINTR`, so a second `close` could close a descriptor another thread has
/// just been given (swift-nio treats `EINTR` from `close` the same way). Any other failure is
/// thrown as a `SystemError` ("close" and its `errno`); a caller that has nothing left to do about
/// it discards it with `try?`.
package func closeDescriptor(_ descriptor: Int32) throws(SystemError) {
    if close(descriptor) == 0 { return }
    let code = errno
    if code != EINTR { throw SystemError("close", code: code) }
}
