import Foundation
import RedisTestServer
import Testing
@testable import VignetteRedis

/// A failed connection keeps hiredis' own code (`redisContext.err`) beside its message.
@Suite("RedisError: hiredis' code beside its message")
struct RedisErrorTests {
    @Test("A closed loopback port is .connectionFailed with REDIS_ERR_IO and the system's reason")
    func refusedConnectionKeepsTheCode() throws {
        let port = try RedisTestServer.freePort()
        var configuration = RedisConfiguration(host: "127.0.0.1", port: port)
        configuration.connectTimeout = .seconds(2)
        do {
            _ = try RedisConnection(configuration: configuration)
            Issue.record("a connection was made to a closed port")
        } catch {
            #expect(error.kind == .connectionFailed)
            // hiredis' read.h: REDIS_ERR_IO = 1 (the message is then strerror's).
            #expect(error.code == 1)
            #expect(error.message == "127.0.0.1:\(port): \(String(cString: strerror(ECONNREFUSED)))", "\(error)")
        }
    }

    @Test("An error made without hiredis' code carries none")
    func noCode() {
        #expect(RedisError(.errorReply, "WRONGPASS").code == nil)
        #expect(RedisError(.errorReply, "x") != RedisError(.errorReply, "x", code: 1))
    }
}
