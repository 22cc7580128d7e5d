#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
internal import CVignetteHiredis
import VignetteSupport

/// One blocking connection to Redis: a hiredis `redisContext` (connected with
/// `redisConnectWithTimeout`, with `redisSetTimeout` on its socket), commands sent with
/// `redisCommandArgv` (binary-safe arguments), replies freed with `freeReplyObject`.
///
/// `@unchecked Sendable`: a hiredis context is not thread-safe, and it is never used by two threads
/// at once: a connection is either idle in `RedisConnectionPool` or held by the one caller that took
/// it out.
final class RedisConnection: @unchecked Sendable {
    /// A reply that is not an error.
    enum Reply: Equatable {
        case bytes(Data)
        case status(String)
        case integer(Int)
        case null
        case array(count: Int)
    }

    private let context: UnsafeMutablePointer<redisContext>
    private let commandTimeout: Duration
    /// Set when the connection can no longer be trusted (an I/O error or a timeout: a late reply
    /// could still arrive); the pool then drops it.
    private(set) var isBroken = false

    /// A connection to the server `configuration` names, authenticated and on its database.
    init(configuration: RedisConfiguration) throws(RedisError) {
        let host = configuration.host
        let port = Int32(clamping: configuration.port)
        let connectTimeout = RedisConnection.timeval(configuration.connectTimeout)
        let made = SIGPIPEGuard.run { redisConnectWithTimeout(host, port, connectTimeout) }
        guard let made else { throw RedisError(.connectionFailed, "\(host):\(port): hiredis could not allocate a context") }
        if made.pointee.err != 0 {
            let timedOut = errno == EINPROGRESS || errno == ETIMEDOUT || errno == EAGAIN
            let (code, message) = (made.pointee.err, String(cString: vgn_redis_errstr(made)))
            redisFree(made)
            if timedOut {
                throw RedisError(.timedOut, "\(host):\(port): no connection within \(configuration.connectTimeout) (\(message))", code: code)
            }
            throw RedisError(.connectionFailed, "\(host):\(port): \(message)", code: code)
        }
        guard redisSetTimeout(made, RedisConnection.timeval(configuration.commandTimeout)) == REDIS_OK else {
            let (code, message) = (made.pointee.err, String(cString: vgn_redis_errstr(made)))
            redisFree(made)
            throw RedisError(.connectionFailed, "\(host):\(port): could not set the socket timeout (\(message))", code: code)
        }
        context = made
        commandTimeout = configuration.commandTimeout
        if let password = configuration.password {
            let user = configuration.username.map { [Data($0.utf8)] } ?? []
            _ = try command([Data("AUTH".utf8)] + user + [Data(password.utf8)])
        }
        if configuration.database != 0 {
            _ = try command([Data("SELECT".utf8), Data(String(configuration.database).utf8)])
        }
    }

    deinit {
        redisFree(context)
    }

    /// Sends `arguments` (the command's name first) and waits for the reply.
    /// - Throws: `RedisError`: an error reply (the connection stays usable), or a timeout or I/O
    ///   failure (the connection is then broken).
    func command(_ arguments: [Data]) throws(RedisError) -> Reply {
        guard !isBroken else { throw RedisError(.connectionLost, "the connection was closed after an earlier failure") }
        let lengths = arguments.map(\.count)
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, lengths.reduce(0, +)), alignment: 1)
        defer { storage.deallocate() }
        var pointers: [UnsafePointer<CChar>?] = []
        pointers.reserveCapacity(arguments.count)
        var offset = 0
        for argument in arguments {
            let slot = UnsafeMutableRawBufferPointer(rebasing: storage[offset..<(offset + argument.count)])
            _ = argument.copyBytes(to: slot.bindMemory(to: UInt8.self))
            pointers.append(storage.baseAddress.map { UnsafePointer(($0 + offset).assumingMemoryBound(to: CChar.self)) })
            offset += argument.count
        }
        let context = context
        let raw = SIGPIPEGuard.run {
            pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { argvlen in
                    redisCommandArgv(context, Int32(arguments.count), argv.baseAddress, argvlen.baseAddress)
                }
            }
        }
        guard let raw else { throw failure() }
        defer { freeReplyObject(raw) }
        let reply = raw.assumingMemoryBound(to: redisReply.self).pointee
        func text() -> String {
            guard let str = reply.str else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: str, count: reply.len), as: UTF8.self)
        }
        switch reply.type {
        case REDIS_REPLY_STRING:
            guard let str = reply.str else { return .bytes(Data()) }
            return .bytes(Data(bytes: str, count: reply.len))
        case REDIS_REPLY_STATUS: return .status(text())
        case REDIS_REPLY_INTEGER: return .integer(Int(reply.integer))
        case REDIS_REPLY_NIL: return .null
        case REDIS_REPLY_ARRAY: return .array(count: reply.elements)
        case REDIS_REPLY_ERROR: throw RedisError(.errorReply, text())
        default: throw RedisError(.errorReply, "a reply of unknown type \(reply.type)")
        }
    }

    /// The context's error after a failed command; the connection is broken from now on.
    private func failure() -> RedisError {
        let code = errno
        isBroken = true
        let message = String(cString: vgn_redis_errstr(context))
        let hiredisCode = context.pointee.err == 0 ? nil : context.pointee.err
        // hiredis reports the socket timeout as the read's EAGAIN ("Resource temporarily unavailable").
        let timedOut = code == EAGAIN || code == EWOULDBLOCK || message == SystemError.reason(for: EAGAIN)
        if timedOut { return RedisError(.timedOut, "no reply within \(commandTimeout) (\(message))", code: hiredisCode) }
        return RedisError(.connectionLost, message.isEmpty ? "the connection failed" : message, code: hiredisCode)
    }

    /// `duration` as a `struct timeval`.
    static func timeval(_ duration: Duration) -> Glibc.timeval {
        let microseconds = max(1000, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000)
        return Glibc.timeval(tv_sec: Int(microseconds / 1_000_000), tv_usec: Int(microseconds % 1_000_000))
    }
}
