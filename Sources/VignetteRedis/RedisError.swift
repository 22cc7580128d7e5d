/// Why a Redis call failed. `RedisDataCache` never throws it to the pipeline (a failure is a miss
/// or a dropped write); it is what the logs and `RedisConfiguration(url:)` report.
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable {
        /// The URL or a setting is not usable.
        case invalidConfiguration
        /// No connection could be made (refused, unreachable, name not resolved).
        case connectionFailed
        /// No reply within the command timeout, or no connection within the connect timeout.
        case timedOut
        /// The connection broke (reset, closed by the server).
        case connectionLost
        /// Redis answered with an error reply (e.g. a wrong password, out of memory).
        case errorReply
    }

    /// The kind of failure.
    public let kind: Kind
    /// hiredis' or Redis' own message.
    public let message: String
    /// hiredis' own code for the failure, `redisContext.err`: `REDIS_ERR_IO` (1, the system's
    /// reason is the message), `REDIS_ERR_OTHER` (2), `REDIS_ERR_EOF` (3), `REDIS_ERR_PROTOCOL` (4),
    /// `REDIS_ERR_OOM` (5), or `REDIS_ERR_TIMEOUT` (6, hiredis 1.2); nil when hiredis gave none (an error reply
    /// from Redis, a configuration refused before any connection).
    public let code: Int32?

    /// An error of `kind` with `message`, and hiredis' `code` when it gave one.
    public init(_ kind: Kind, _ message: String, code: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    /// The message, prefixed with what went wrong.
    public var description: String { "redis: \(message)" }
}
