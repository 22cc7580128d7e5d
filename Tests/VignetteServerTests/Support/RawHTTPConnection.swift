import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection to 127.0.0.1 spoken to in plain HTTP/1.1 bytes, for what an HTTP client
/// library hides: whether a connection is reused, a client that half-closes. Blocking calls with a
/// 60-s receive timeout; a test calls it from a task of its own.
final class RawHTTPConnection {
    private let fd: Int32

    /// A response as read: its status, its headers (names lowercased) and its body.
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: [UInt8]
    }

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("connect: errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Sends a GET of `path`.
    func sendGet(_ path: String) throws {
        try sendRaw("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    }

    /// Sends `text` as it is.
    func sendRaw(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestFailure("send: errno \(errno)") }
            sent += n
        }
    }

    /// Closes the sending side (a FIN): the client has nothing more to say.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    private var buffer: [UInt8] = []

    /// Reads one response with a Content-Length body.
    func readResponse() throws -> Response {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == separator }
            if headerEnd == nil { try fill() }
        }
        guard let end = headerEnd else { throw TestFailure("no header") }
        let lines = String(decoding: buffer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < end + 4 + length { try fill() }
        let body = Array(buffer[(end + 4)..<(end + 4 + length)])
        buffer.removeFirst(end + 4 + length)
        return Response(status: status, headers: headers, body: body)
    }

    /// Whether the server has closed the connection (a read gives end of file) within 60 s.
    func readsEndOfFile() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return n == 0
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw TestFailure(n == 0 ? "the server closed the connection" : "recv: errno \(errno)") }
        buffer += chunk[..<n]
    }
}

/// `body`'s result, computed on a Dispatch thread: blocking socket calls must not hold one of the
/// few threads of Swift's cooperative pool, which the server under test needs.
func onDispatchThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
