import Testing
@testable import VignetteRedis

@Suite("redis:// URLs")
struct RedisConfigurationTests {
    @Test func hostPortAndDatabase() throws {
        let configuration = try RedisConfiguration(url: "redis://cache.internal:6380/3")
        #expect(configuration.host == "cache.internal")
        #expect(configuration.port == 6380)
        #expect(configuration.database == 3)
        #expect(configuration.password == nil && configuration.username == nil)
    }

    @Test func defaults() throws {
        let configuration = try RedisConfiguration(url: "redis://10.0.0.5")
        #expect(configuration.port == 6379 && configuration.database == 0)
        #expect(configuration.connectTimeout == .milliseconds(50) && configuration.commandTimeout == .milliseconds(50))
        #expect(configuration.namespace == "vignette")
    }

    @Test func passwordAndUser() throws {
        let onlyPassword = try RedisConfiguration(url: "redis://:s%40cret@127.0.0.1:7000")
        #expect(onlyPassword.password == "s@cret" && onlyPassword.username == nil && onlyPassword.port == 7000)
        let both = try RedisConfiguration(url: "redis://thumbs:pa:ss@host/1")
        #expect(both.username == "thumbs" && both.password == "pa:ss" && both.database == 1)
        let legacy = try RedisConfiguration(url: "redis://secret@host")
        #expect(legacy.password == "secret" && legacy.username == nil)
    }

    @Test func bracketedIPv6() throws {
        let configuration = try RedisConfiguration(url: "redis://[::1]:6390/2")
        #expect(configuration.host == "::1" && configuration.port == 6390 && configuration.database == 2)
    }

    @Test(arguments: [
        "http://host:6379", "redis://", "redis://host:port", "redis://host:0", "redis://host:70000",
        "redis://host/db", "redis://host/-1", "redis://[::1", "redis://:%zz@host",
    ])
    func refused(_ url: String) {
        #expect {
            try RedisConfiguration(url: url)
        } throws: { error in
            guard let error = error as? RedisError else { return false }
            return error.kind == .invalidConfiguration && error.message.contains(url)
        }
    }
}

@Suite("Circuit breaker")
struct CircuitBreakerTests {
    @Test func opensAfterTheThresholdAndLetsOneTrialThroughAfterTheCooldown() {
        let breaker = CircuitBreaker(failureThreshold: 3, cooldown: .seconds(5))
        let start = ContinuousClock.now
        #expect(breaker.recordFailure(now: start) == .none)
        #expect(breaker.recordFailure(now: start) == .none)
        #expect(breaker.decide(now: start) == .call)
        #expect(breaker.recordFailure(now: start) == .opened)
        #expect(breaker.decide(now: start + .seconds(4)) == .skip)
        #expect(breaker.isOpen)
        // Half-open: one trial, and the calls after it are still skipped.
        #expect(breaker.decide(now: start + .seconds(5)) == .trial)
        #expect(breaker.decide(now: start + .seconds(5)) == .skip)
        // Its failure opens the breaker for another cooldown.
        #expect(breaker.recordFailure(now: start + .seconds(5)) == .opened)
        #expect(breaker.decide(now: start + .seconds(9)) == .skip)
        #expect(breaker.decide(now: start + .seconds(10)) == .trial)
        #expect(breaker.recordSuccess() == .closed)
        #expect(!breaker.isOpen && breaker.decide(now: start + .seconds(10)) == .call)
    }

    @Test func aSuccessResetsTheCount() {
        let breaker = CircuitBreaker(failureThreshold: 2, cooldown: .seconds(1))
        breaker.recordFailure()
        #expect(breaker.recordSuccess() == .none)
        #expect(breaker.recordFailure() == .none)
        #expect(breaker.recordFailure() == .opened)
    }
}
