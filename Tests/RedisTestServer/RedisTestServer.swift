import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `redis-server` of a test's own: on 127.0.0.1, on a port the kernel said was free, with no
/// persistence, stopped when the test is done (`stop()`, or at deinit). `make test` installs
/// redis-server (Debian's package) when it is missing.
///
/// `@unchecked Sendable`: one test owns it and calls it from one task at a time; the process
/// handle is only replaced by `start`/`restart`, which the test awaits.
public final class RedisTestServer: @unchecked Sendable {
    /// The port it listens on (kept across `restart()`).
    public let port: Int
    /// The password it requires; nil for none.
    public let password: String?
    private var process: pid_t?

    /// Why a server could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts a server on a free port and waits until it answers PING.
    public static func start(password: String? = nil) throws -> RedisTestServer {
        var lastFailure: Error = Failure(description: "redis-server did not start")
        for _ in 0..<3 {
            let server = RedisTestServer(port: try freePort(), password: password)
            do {
                try server.launch()
                return server
            } catch {
                lastFailure = error
            }
        }
        throw lastFailure
    }

    private init(port: Int, password: String?) {
        self.port = port
        self.password = password
    }

    deinit { stop() }

    /// `redis://[:PASSWORD@]127.0.0.1:PORT`, optionally with a database.
    public func url(database: Int? = nil) -> String {
        let credentials = password.map { ":\($0)@" } ?? ""
        return "redis://\(credentials)127.0.0.1:\(port)" + (database.map { "/\($0)" } ?? "")
    }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it to exit.
    public func stop() {
        guard let pid = process else { return }
        process = nil
        kill(pid, SIGCONT)
        kill(pid, SIGTERM)
        for _ in 0..<500 {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// Starts it again on the same port, empty.
    public func restart() throws {
        stop()
        try launch()
    }

    /// Stops the process where it is (SIGSTOP): connections open, nothing answered — a slow Redis.
    public func pause() {
        if let process { kill(process, SIGSTOP) }
    }

    /// Lets a paused server go on (SIGCONT).
    public func resume() {
        if let process { kill(process, SIGCONT) }
    }

    /// What `redis-cli` prints for `arguments` (e.g. `["DBSIZE"]`), trimmed.
    public func cli(_ arguments: [String]) throws -> String {
        var all = ["-h", "127.0.0.1", "-p", String(port), "--no-auth-warning"]
        if let password { all += ["-a", password] }
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        let pid: pid_t
        do {
            pid = try Self.spawn(Self.executable("redis-cli"), all + arguments, stdout: pipe[1])
        } catch {
            close(pipe[0])
            close(pipe[1])
            throw error
        }
        close(pipe[1])
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipe[0], &buffer, buffer.count)
            if count > 0 { output += buffer.prefix(count) } else if count < 0 && errno == EINTR { continue } else { break }
        }
        close(pipe[0])
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func launch() throws {
        var arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--daemonize", "no", "--protected-mode", "no", "--loglevel", "warning", "--dir", NSTemporaryDirectory(),
        ]
        if let password { arguments += ["--requirepass", password] }
        let pid = try Self.spawn(Self.executable("redis-server"), arguments, stdout: nil)
        process = pid
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                process = nil
                break
            }
            if answersPing() { return }
            usleep(20_000)
        }
        stop()
        throw Failure(description: "redis-server on 127.0.0.1:\(port) did not answer PING")
    }

    /// Starts `path` with `arguments`, standard output to `stdout` (else /dev/null), standard error
    /// to /dev/null, with an empty signal mask and default handlers: the test process's threads may
    /// block signals (SIGTERM among them), which a child would otherwise inherit and never see.
    private static func spawn(_ path: String, _ arguments: [String], stdout: Int32?) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard result == 0 else { throw Failure(description: "\(path): \(String(cString: strerror(result)))") }
        return pid
    }

    /// Whether a connection to the port gets +PONG (or -NOAUTH: it is up) for PING.
    private func answersPing() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = Self.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return false }
        let ping = Array("PING\r\n".utf8)
        guard send(fd, ping, ping.count, Int32(MSG_NOSIGNAL)) == ping.count else { return false }
        var reply = [UInt8](repeating: 0, count: 64)
        let count = recv(fd, &reply, reply.count, 0)
        guard count > 0 else { return false }
        let text = String(decoding: reply.prefix(count), as: UTF8.self)
        return text.hasPrefix("+PONG") || text.hasPrefix("-NOAUTH")
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw Failure(description: "bind: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    private static func executable(_ name: String) throws -> String {
        for folder in ["/usr/bin", "/usr/local/bin", "/usr/sbin"] where access(folder + "/" + name, X_OK) == 0 {
            return folder + "/" + name
        }
        throw Failure(description: "\(name) is not installed (make install-deps installs Debian's redis-server)")
    }
}
