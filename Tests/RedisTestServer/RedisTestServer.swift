import ChildProcess
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
    private var process: ChildProcess?

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
        guard let process else { return }
        self.process = nil
        process.send(SIGCONT)
        process.send(SIGTERM)
        if process.waitForExit(timeout: .seconds(5)) == nil {
            process.send(SIGKILL)
            _ = process.waitForExit(timeout: .seconds(10))
        }
    }

    /// Starts it again on the same port, empty.
    public func restart() throws {
        stop()
        try launch()
    }

    /// Stops the process where it is (SIGSTOP): connections open, nothing answered — a slow Redis.
    public func pause() {
        process?.send(SIGSTOP)
    }

    /// Lets a paused server go on (SIGCONT).
    public func resume() {
        process?.send(SIGCONT)
    }

    /// What `redis-cli` prints for `arguments` (e.g. `["DBSIZE"]`), trimmed. It waits on the calling
    /// thread, for a few milliseconds.
    public func cli(_ arguments: [String]) throws -> String {
        var all = ["-h", "127.0.0.1", "-p", String(port), "--no-auth-warning"]
        if let password { all += ["-a", password] }
        let client = try Self.spawn(Self.executable("redis-cli"), all + arguments)
        guard client.waitForExit(timeout: .seconds(60)) != nil else {
            client.send(SIGKILL)
            throw Failure(description: "redis-cli \(arguments.joined(separator: " ")) did not end within 60 s")
        }
        return client.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func launch() throws {
        var arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
            "--daemonize", "no", "--protected-mode", "no", "--loglevel", "warning", "--dir", NSTemporaryDirectory(),
        ]
        if let password { arguments += ["--requirepass", password] }
        let server = try Self.spawn(Self.executable("redis-server"), arguments)
        process = server
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !server.isRunning {
                process = nil
                break
            }
            if answersPing() { return }
            usleep(20_000)
        }
        stop()
        throw Failure(description: "redis-server on 127.0.0.1:\(port) did not answer PING")
    }

    /// Starts `path` with `arguments` as a `ChildProcess`: an empty signal mask and default handlers
    /// (the test process's threads may block SIGTERM, which a child would otherwise inherit and
    /// never see), no descriptor of the tests', and never killed for its age (a server runs as
    /// long as its test).
    private static func spawn(_ path: String, _ arguments: [String]) throws -> ChildProcess {
        do {
            return try ChildProcess(path, arguments, killAfter: .seconds(86_400))
        } catch {
            throw Failure(description: "\(error)")
        }
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
