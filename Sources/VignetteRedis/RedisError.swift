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

    /// An error of `kind` with `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message, prefixed with what went wrong.
    public var description: String { "redis: \(message)" }
}
