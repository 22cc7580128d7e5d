// Foundation rather than FoundationEssentials: percent-decoding (`removingPercentEncoding`) is in it.
import Foundation
import VignetteSupport

/// Where Redis is and how `RedisDataCache` uses it: keys, lifetime, size limit, timeouts and the
/// circuit breaker. The defaults suit a cache in the same data centre: tens of milliseconds at
/// most per call, so that a Redis that is down or slow costs a request almost nothing.
public struct RedisConfiguration: Sendable, Equatable {
    /// The host name or address of the Redis server.
    public var host: String
    /// Its TCP port (6379 by default).
    public var port: Int
    /// The database number (`SELECT`); 0 by default.
    public var database: Int
    /// The user for `AUTH` (Redis 6 ACLs); nil for the default user.
    public var username: String?
    /// The password for `AUTH`; nil for none.
    public var password: String?
    /// Every key starts with this and the format's version: `<namespace>:v1:<sha-256 of the
    /// pipeline's key>` ("vignette" by default). Processes that share a namespace share results.
    public var namespace: String
    /// How long Redis keeps a value (`SET … PX`); 7 days by default.
    public var timeToLive: Duration
    /// Values larger than this are not stored (8 MiB by default).
    public var maxValueBytes: Int
    /// How long a connection may take to open (50 ms by default).
    public var connectTimeout: Duration
    /// How long a command may wait for its reply (50 ms by default).
    public var commandTimeout: Duration
    /// Consecutive failures after which the circuit breaker opens (3 by default).
    public var failureThreshold: Int
    /// How long an open breaker skips Redis before one call tries it again (5 s by default).
    public var breakerCooldown: Duration
    /// Connections kept open for reuse (4 by default, as the pipeline's `sharedCacheConcurrency`).
    public var maxIdleConnections: Int
    /// Bytes of writes that may wait for Redis; past it, writes are dropped (64 MiB by default).
    public var maxPendingWriteBytes: Int

    /// The default connect and command timeout, in milliseconds.
    package static let defaultTimeoutMilliseconds = 50

    /// Redis at `host`:`port`, database `database`, with the defaults for the rest.
    public init(host: String = "127.0.0.1", port: Int = 6379, database: Int = 0) {
        self.host = host
        self.port = port
        self.database = database
        username = nil
        password = nil
        namespace = "vignette"
        timeToLive = .seconds(7 * 86_400)
        maxValueBytes = 8 << 20
        connectTimeout = .milliseconds(Self.defaultTimeoutMilliseconds)
        commandTimeout = .milliseconds(Self.defaultTimeoutMilliseconds)
        failureThreshold = 3
        breakerCooldown = .seconds(5)
        maxIdleConnections = 4
        maxPendingWriteBytes = 64 << 20
    }

    /// The configuration of a `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]` URL (the user and
    /// password percent-encoded; an IPv6 host in brackets), with the defaults for the rest.
    /// - Throws: `RedisError` of kind `invalidConfiguration`, saying what is wrong.
    public init(url: String) throws(RedisError) {
        func invalid(_ reason: String) -> RedisError {
            RedisError(.invalidConfiguration, "\(reason) in \(url) (expected redis://[[USER]:PASSWORD@]HOST[:PORT][/DB])")
        }
        let scheme = "redis://"
        guard url.lowercased().hasPrefix(scheme) else { throw invalid("not a redis:// URL") }
        var rest = Substring(url.dropFirst(scheme.count))
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var credentials: Substring?
        if let at = rest.lastIndex(of: "@") {
            credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
        }
        var host = rest
        var port = 6379
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw invalid("an unclosed [") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()) else { throw invalid("a bad port") }
                port = number
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let number = Int(rest[rest.index(after: colon)...]) else { throw invalid("a bad port") }
            port = number
        }
        guard !host.isEmpty else { throw invalid("no host") }
        guard (1...65535).contains(port) else { throw invalid("port \(port) out of range") }
        var database = 0
        if !path.isEmpty {
            guard let number = Int(path), number >= 0 else { throw invalid("a bad database number") }
            database = number
        }
        self.init(host: String(host), port: port, database: database)
        if let credentials {
            let parts = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) throws(RedisError) -> String {
                guard let value = String(text).removingPercentEncoding else { throw invalid("bad percent-encoding") }
                return value
            }
            if parts.count == 2 {
                username = parts[0].isEmpty ? nil : try decoded(parts[0])
                password = try decoded(parts[1])
            } else if let only = parts.first, !only.isEmpty {
                password = try decoded(only)
            }
        }
    }
}
