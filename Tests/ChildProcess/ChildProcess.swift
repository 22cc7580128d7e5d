#if canImport(Glibc)
import Glibc
#endif

/// A child process of the tests' own: `vignette`, `vips`, `transicc`, `redis-server`, a shell.
///
/// Foundation's `Process` is not used for these. On Linux it learns that a child has ended from a
/// socket the child inherits, on one manager thread, and its pipes are not close-on-exec: a child
/// started at the same moment from another test can inherit both, and then neither the end of the
/// first child nor the end of its output is seen until the second one exits too. Under the
/// parallel suite that held tests, and the threads they block, for as long as a `redis-server` or a
/// `vignette serve` ran.
///
/// Here every descriptor the child gets is made for it (close-on-exec pipes, and
/// `posix_spawn_file_actions_addclosefrom_np(3)` closes anything else), the end is learnt from the
/// kernel (`waitid`), and one thread of the child's own collects its output and kills it once its
/// time is up, so that no test can wait for a child forever and none blocks Swift's cooperative
/// pool while it waits.
public final class ChildProcess: @unchecked Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A descriptor of this process (a file, a FIFO, a pipe's read end), duplicated.
        case descriptor(Int32)
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Why a child could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The child's process id (it stays the child's until the watcher has reaped it).
    public let processIdentifier: pid_t
    /// The executable, for messages.
    public let path: String

    // Guarded by `lock`.
    private var lock = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var output: [UInt8] = []
    private var errorOutput: [UInt8] = []
    private var termination: Termination?
    private var deadline: ContinuousClock.Instant
    private var wasKilled = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var trigger: (signal: Int32, delay: Duration, predicate: @Sendable (String) -> Bool)?

    /// Starts `path` with `arguments`. `environment` replaces the test process's own when given.
    /// Standard output and error are collected (`standardOutput`, `standardError`). The child
    /// starts with exactly `blockedSignals` blocked and SIGTERM, SIGINT, SIGPIPE and SIGHUP at their
    /// default actions, whatever the starting thread had. It is killed (SIGKILL) once it has run
    /// `killAfter`, so that a test of something that hangs fails instead of hanging.
    public init(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil, input: Input = .null,
        blockedSignals: [Int32] = [], killAfter: Duration = .seconds(600)
    ) throws {
        self.path = path
        deadline = ContinuousClock.now + killAfter
        pthread_mutex_init(&lock, nil)
        pthread_cond_init(&changed, nil)

        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        func makePipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw Failure(description: "pipe: \(Self.describe(errno))") }
            opened += ends
            // Close-on-exec at once; the child's other descriptors are closed by the spawn itself.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
        let outPipe = try makePipe(), errPipe = try makePipe()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch input {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)
        Self.closeTheRest(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blockedSignals { sigaddset(&mask, signal) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid: pid_t = 0
        let status = envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard status == 0 else { throw Failure(description: "\(path): \(Self.describe(status))") }
        processIdentifier = pid

        // The child has its copies; this process keeps the read ends.
        opened = [outPipe.write, errPipe.write]
        for descriptor in [outPipe.read, errPipe.read] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        let watched = (outPipe.read, errPipe.read)
        Self.startThread { [self] in watch(output: watched.0, error: watched.1) }
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&lock)
    }

    // MARK: - While it runs

    /// Whether the child is still running (not yet reaped by the watcher).
    public var isRunning: Bool { locked { termination == nil } }

    /// What it has written to standard output so far (all of it once it has ended).
    public var standardOutput: String { locked { String(decoding: output, as: UTF8.self) } }

    /// What it has written to standard error so far (all of it once it has ended).
    public var standardError: String { locked { String(decoding: errorOutput, as: UTF8.self) } }

    /// Sends `signal` to the child, unless it has already been reaped (its pid may be reused).
    public func send(_ signal: Int32) {
        locked { if termination == nil { kill(processIdentifier, signal) } }
    }

    /// Sends `signal` from the watcher thread, `delay` after the child's standard output first
    /// satisfies `predicate` (checked as soon as each piece of output arrives): a signal that must
    /// land at a given point of the child's work, not whenever a test's task next runs.
    public func send(_ signal: Int32, after delay: Duration = .zero, onceStandardOutput predicate: @escaping @Sendable (String) -> Bool) {
        let already = locked { () -> Bool in
            if termination == nil, predicate(String(decoding: output, as: UTF8.self)) { return true }
            trigger = (signal, delay, predicate)
            return false
        }
        if already {
            if delay > .zero { usleep(UInt32(delay.components.attoseconds / 1_000_000_000_000)) }
            send(signal)
        }
    }

    /// Waits, polling without holding a thread, for the first line of standard error that starts
    /// with `prefix`; nil if the child ends or `timeout` passes first.
    public func line(inStandardErrorStartingWith prefix: String, timeout: Duration = .seconds(300)) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let (text, ended) = locked { (String(decoding: errorOutput, as: UTF8.self), termination != nil) }
            if let found = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(found) }
            if ended { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    // MARK: - Its end

    /// How it ended, with everything it wrote, and whether it was killed for running past its
    /// time.
    public struct Result: Sendable {
        public let termination: Termination
        /// The bytes it wrote to standard output.
        public let output: [UInt8]
        /// The bytes it wrote to standard error.
        public let errorOutput: [UInt8]
        public let wasKilled: Bool

        public var standardOutput: String { String(decoding: output, as: UTF8.self) }
        public var standardError: String { String(decoding: errorOutput, as: UTF8.self) }
    }

    /// Waits for the child's end without blocking a thread of Swift's pool; kills it first if it is
    /// still running after `killAfter` (counted from now; the limit given at start still holds).
    public func result(killAfter limit: Duration? = nil) async -> Result {
        if let limit { locked { deadline = min(deadline, ContinuousClock.now + limit) } }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = locked { () -> Bool in
                if termination != nil { return true }
                waiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
        return locked { finished() } ?? Result(termination: .signalled(0), output: [], errorOutput: [], wasKilled: false)
    }

    /// Blocks the calling thread until the child has ended or `timeout` has passed; nil on timeout.
    /// For synchronous callers (a test server's `stop()`); async code uses `result(killAfter:)`.
    public func waitForExit(timeout: Duration) -> Termination? {
        let deadline = ContinuousClock.now + timeout
        return locked {
            while termination == nil, ContinuousClock.now < deadline {
                var now = timespec()
                clock_gettime(CLOCK_REALTIME, &now)
                var until = now
                until.tv_nsec += 20_000_000
                if until.tv_nsec >= 1_000_000_000 { until.tv_sec += 1; until.tv_nsec -= 1_000_000_000 }
                pthread_cond_timedwait(&changed, &lock, &until)
            }
            return termination
        }
    }

    private func finished() -> Result? {
        termination.map {
            Result(termination: $0, output: output, errorOutput: errorOutput, wasKilled: wasKilled)
        }
    }

    // MARK: - The watcher

    /// Collects output until the child has been reaped, killing it at the deadline.
    private func watch(output outDescriptor: Int32, error errDescriptor: Int32) {
        var descriptors = [outDescriptor, errDescriptor]
        defer { for descriptor in descriptors where descriptor >= 0 { close(descriptor) } }
        while true {
            var polled = descriptors.filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if polled.isEmpty { usleep(5_000) } else { _ = poll(&polled, nfds_t(polled.count), 20) }
            drain(&descriptors)
            if let ended = reap() {
                // Everything the child wrote is in the pipes now; a copy of a write end held by
                // someone else would never end them, so read what is there and stop.
                drain(&descriptors)
                let waiting = locked { () -> [CheckedContinuation<Void, Never>] in
                    termination = ended
                    pthread_cond_broadcast(&changed)
                    defer { waiters.removeAll() }
                    return waiters
                }
                for waiter in waiting { waiter.resume() }
                return
            }
            locked {
                if !wasKilled, ContinuousClock.now >= deadline {
                    wasKilled = true
                    kill(processIdentifier, SIGKILL)
                }
            }
        }
    }

    /// Reads what is waiting on each descriptor (they are non-blocking); closes those at their end.
    private func drain(_ descriptors: inout [Int32]) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        for index in descriptors.indices where descriptors[index] >= 0 {
            while true {
                let count = read(descriptors[index], &buffer, buffer.count)
                if count > 0 {
                    let fired = locked { () -> (signal: Int32, delay: Duration)? in
                        if index == 0 { output += buffer.prefix(count) } else { errorOutput += buffer.prefix(count) }
                        guard index == 0, let trigger, trigger.predicate(String(decoding: output, as: UTF8.self)) else { return nil }
                        self.trigger = nil
                        return (trigger.signal, trigger.delay)
                    }
                    if let fired {
                        if fired.delay > .zero { usleep(UInt32(fired.delay.components.attoseconds / 1_000_000_000_000)) }
                        kill(processIdentifier, fired.signal)  // not reaped yet: this watcher reaps it
                    }
                    continue
                }
                if count < 0, errno == EINTR { continue }
                if count == 0 {
                    close(descriptors[index])
                    descriptors[index] = -1
                }
                break  // EOF, EAGAIN or an error
            }
        }
    }

    /// The child's end if it has ended, reaping it.
    private func reap() -> Termination? {
        var info = siginfo_t()
        while true {
            let result = waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG)
            if result == -1, errno == EINTR { continue }
            // ECHILD cannot happen for a child only this watcher reaps; treat it as gone.
            if result == -1 { return .signalled(0) }
            guard info._sifields._sigchld.si_pid == processIdentifier else { return nil }
            let status = info._sifields._sigchld.si_status
            return info.si_code == CLD_EXITED ? .exited(status) : .signalled(status)
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return try body()
    }

    private static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift's Glibc module does
    /// not show (it is a GNU extension), looked up once.
    private static let closeFrom: CloseFrom? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// Adds the closing of every descriptor from 3 up to the file actions: those of the tests'
    /// (pipes, sockets, files opened without close-on-exec) are none of the child's business.
    /// Without glibc's action, each descriptor open now is closed one by one.
    private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom {
            _ = closeFrom(&actions, 3)
            return
        }
        guard let folder = opendir("/proc/self/fd") else { return }
        defer { closedir(folder) }
        let own = dirfd(folder)
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let descriptor = Int32(name), descriptor >= 3, descriptor != own {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }
    }

    /// A detached thread of the child's own: Dispatch's pool and Swift's may both be blocked.
    private static func startThread(_ body: @escaping () -> Void) {
        final class Box {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let status = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            Unmanaged<Box>.fromOpaque(argument).takeRetainedValue().body()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        if status != 0 { Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body() }
    }
}
