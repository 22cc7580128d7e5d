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
