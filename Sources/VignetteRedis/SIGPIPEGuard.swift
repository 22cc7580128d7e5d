#if canImport(Glibc)
import Glibc
#endif

/// hiredis writes to its socket with `write(2)`, which raises SIGPIPE when Redis has closed the
/// connection, and SIGPIPE's default action ends the process. Rather than ignore the signal for
/// the whole process (the application's choice to make), each call blocks it on the calling
/// thread, takes back a SIGPIPE that call raised, and restores the thread's mask: the write then
/// fails with EPIPE, which hiredis reports as an error.
enum SIGPIPEGuard {
    /// `body`'s result, run with SIGPIPE blocked on this thread.
    static func run<T>(_ body: () -> T) -> T {
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &previous)
        defer {
            if sigismember(&previous, SIGPIPE) == 0 {
                var pending = sigset_t()
                sigpending(&pending)
                if sigismember(&pending, SIGPIPE) == 1 {
                    var now = timespec()
                    _ = sigtimedwait(&pipe, nil, &now)
                }
                pthread_sigmask(SIG_SETMASK, &previous, nil)
            }
        }
        return body()
    }
}
