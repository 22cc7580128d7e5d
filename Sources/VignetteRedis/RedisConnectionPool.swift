#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteCodecs
import VignetteSupport

/// Connections to one Redis server, reused: a caller takes an idle one (or opens a new one), uses
/// it alone, and gives it back unless it broke. At most `RedisConfiguration.maxIdleConnections`
/// stay open while idle; how many are in use at once is bounded by the callers (the pipeline's
/// shared-cache threads and the one writer).
final class RedisConnectionPool: Sendable {
    private let idle = Locked<[RedisConnection]>([])
    let configuration: RedisConfiguration

    init(configuration: RedisConfiguration) {
        self.configuration = configuration
    }

    /// Runs `command` on a connection. A reused connection that turns out to be closed (Redis
    /// restarted since it was last used) is replaced by a new one and the command sent once more;
    /// a timeout is not retried.
    func run(_ arguments: [Data]) throws(RedisError) -> RedisConnection.Reply {
        var reused = idle.withLock { $0.popLast() }
        while true {
            let connection: RedisConnection
            if let taken = reused {
                connection = taken
            } else {
                connection = try RedisConnection(configuration: configuration)
            }
            do {
                let reply = try connection.command(arguments)
                giveBack(connection)
                return reply
            } catch where error.kind == .connectionLost && reused != nil {
                reused = nil
                continue
            } catch {
                giveBack(connection)
                throw error
            }
        }
    }

    /// Closes the idle connections (after Redis failed: they may all be dead).
    func closeIdle() {
        let closing = idle.withLock { idle -> [RedisConnection] in
            defer { idle.removeAll() }
            return idle
        }
        _ = closing
    }

    private func giveBack(_ connection: RedisConnection) {
        guard !connection.isBroken else { return }
        idle.withLock { idle in
            if idle.count < configuration.maxIdleConnections { idle.append(connection) }
        }
    }
}
