import Testing

@testable import Vignette
import VignetteSupport

/// A clock the test moves by hand.
private final class ManualClock: Sendable {
    private let instant = Locked(ContinuousClock.now)
    var now: ContinuousClock.Instant { instant.withLock { $0 } }
    func advance(by duration: Duration) { instant.withLock { $0 = $0.advanced(by: duration) } }
}

/// A thread-safe counter.
private final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

/// Counts its deinits, to see that values leave the cache.
private final class Tracked: Sendable {
    let released: Counter
    let onDeinit: @Sendable () -> Void
    init(_ released: Counter, onDeinit: @escaping @Sendable () -> Void = {}) {
        self.released = released
        self.onDeinit = onDeinit
    }
    deinit {
        onDeinit()
        released.increment()
    }
}

@Suite("LRUCache")
struct LRUCacheTests {
    @Test("a hit moves the entry to the front; eviction takes the least recently used")
    func lruOrder() {
        let cache = LRUCache<String, Int>(costLimit: 100, countLimit: 3, entryCostLimit: 1)
        cache.set(1, forKey: "a")
        cache.set(2, forKey: "b")
        cache.set(3, forKey: "c")
        #expect(cache.keysByRecency() == ["c", "b", "a"])
        #expect(cache.value(forKey: "a") == 1)
        #expect(cache.keysByRecency() == ["a", "c", "b"])
        cache.set(4, forKey: "d")
        #expect(cache.value(forKey: "b") == nil)
        #expect(cache.keysByRecency() == ["d", "a", "c"])
        #expect(cache.isConsistent())
    }

    @Test("replacing a value updates cost and recency")
    func replace() {
        let cache = LRUCache<String, Int>(costLimit: 100, entryCostLimit: 1)
        cache.set(1, forKey: "a", cost: 10)
        cache.set(2, forKey: "b", cost: 10)
        cache.set(3, forKey: "a", cost: 30)
        #expect(cache.value(forKey: "a") == 3)
        #expect(cache.totalCost == 40)
        #expect(cache.totalCount == 2)
        #expect(cache.keysByRecency() == ["a", "b"])
        #expect(cache.isConsistent())
    }

    @Test("the cost limit evicts from the tail until the total fits")
    func costLimit() {
        let cache = LRUCache<Int, Int>(costLimit: 100, entryCostLimit: 1)
        for key in 0..<5 { cache.set(key, forKey: key, cost: 30) }
        #expect(cache.totalCost == 90)
        #expect(cache.keysByRecency() == [4, 3, 2])
        cache.set(9, forKey: 9, cost: 60)
        #expect(cache.keysByRecency() == [9, 4])
        #expect(cache.totalCost == 90)
        #expect(cache.isConsistent())
    }

    @Test("the count limit evicts from the tail")
    func countLimit() {
        let cache = LRUCache<Int, Int>(costLimit: 1000, countLimit: 2)
        for key in 0..<5 { cache.set(key, forKey: key) }
        #expect(cache.totalCount == 2)
        #expect(cache.keysByRecency() == [4, 3])
        cache.countLimit = 1
        #expect(cache.keysByRecency() == [4])
    }

    @Test("an entry above entryCostLimit × costLimit is refused and drops the older value")
    func entryCostLimit() {
        let cache = LRUCache<String, Int>(costLimit: 1000, entryCostLimit: 0.1)
        #expect(cache.set(1, forKey: "small", cost: 100))
        #expect(!cache.set(2, forKey: "big", cost: 101))
        #expect(cache.value(forKey: "big") == nil)
        #expect(!cache.set(3, forKey: "small", cost: 500))
        #expect(cache.value(forKey: "small") == nil)
        #expect(cache.totalCost == 0)
        cache.entryCostLimit = 1
        #expect(cache.set(4, forKey: "big", cost: 1000))
        #expect(!cache.set(5, forKey: "huge", cost: 1001))
        #expect(cache.value(forKey: "big") == 4)
        #expect(cache.isConsistent())
    }

    @Test("nothing is stored when countLimit is zero")
    func zeroCount() {
        let cache = LRUCache<Int, Int>(costLimit: 1000, countLimit: 0)
        #expect(!cache.set(1, forKey: 1))
        #expect(cache.totalCount == 0)
    }

    @Test("TTL: an expired entry is a miss and is removed; a per-entry ttl overrides the default")
    func ttl() {
        let clock = ManualClock()
        let cache = LRUCache<String, Int>(costLimit: 100, ttl: .seconds(10), entryCostLimit: 1, now: { clock.now })
        cache.set(1, forKey: "default")
        cache.set(2, forKey: "short", ttl: .seconds(2))
        cache.set(3, forKey: "long", ttl: .seconds(60))
        clock.advance(by: .seconds(1))
        #expect(cache.value(forKey: "short") == 2)
        clock.advance(by: .seconds(1))
        #expect(cache.value(forKey: "short") == nil)
        #expect(cache.totalCount == 2)
        #expect(cache.value(forKey: "default") == 1)
        clock.advance(by: .seconds(9))
        #expect(cache.value(forKey: "default") == nil)
        #expect(cache.value(forKey: "long") == 3)
        #expect(cache.totalCount == 1)
        #expect(cache.totalCost == 1)
        cache.ttl = nil
        cache.set(4, forKey: "forever")
        clock.advance(by: .seconds(3600))
        #expect(cache.value(forKey: "forever") == 4)
        #expect(cache.value(forKey: "long") == nil)
        #expect(cache.isConsistent())
    }

    @Test("setting a key again restarts its time to live")
    func ttlRestarts() {
        let clock = ManualClock()
        let cache = LRUCache<String, Int>(costLimit: 100, ttl: .seconds(10), now: { clock.now })
        cache.set(1, forKey: "a")
        clock.advance(by: .seconds(8))
        cache.set(2, forKey: "a")
        clock.advance(by: .seconds(8))
        #expect(cache.value(forKey: "a") == 2)
    }

    @Test("trim(toCost:) and trim(toCount:) evict the least recently used")
    func trim() {
        let cache = LRUCache<Int, Int>(costLimit: 1000, entryCostLimit: 1)
        for key in 0..<10 { cache.set(key, forKey: key, cost: 10) }
        _ = cache.value(forKey: 0)
        cache.trim(toCost: 55)
        #expect(cache.totalCost == 50)
        #expect(cache.keysByRecency() == [0, 9, 8, 7, 6])
        cache.trim(toCount: 2)
        #expect(cache.keysByRecency() == [0, 9])
        cache.trim(toCount: 0)
        #expect(cache.totalCount == 0)
        #expect(cache.totalCost == 0)
        #expect(cache.isConsistent())
    }

    @Test("lowering costLimit trims at once")
    func lowerCostLimit() {
        let cache = LRUCache<Int, Int>(costLimit: 1000, entryCostLimit: 1)
        for key in 0..<10 { cache.set(key, forKey: key, cost: 100) }
        cache.costLimit = 250
        #expect(cache.costLimit == 250)
        #expect(cache.totalCost == 200)
        #expect(cache.keysByRecency() == [9, 8])
    }

    @Test("removeValue and removeAll; freed slots are reused")
    func removal() {
        let cache = LRUCache<Int, Int>(costLimit: 1000, entryCostLimit: 1)
        for key in 0..<5 { cache.set(key * 10, forKey: key, cost: 5) }
        #expect(cache.removeValue(forKey: 2) == 20)
        #expect(cache.removeValue(forKey: 2) == nil)
        #expect(cache.totalCount == 4)
        #expect(cache.totalCost == 20)
        cache.set(70, forKey: 7, cost: 5)
        #expect(cache.keysByRecency() == [7, 4, 3, 1, 0])
        #expect(cache.isConsistent())
        cache.removeAll()
        #expect(cache.totalCount == 0)
        #expect(cache.totalCost == 0)
        #expect(cache.value(forKey: 7) == nil)
        cache.set(1, forKey: 1)
        #expect(cache.keysByRecency() == [1])
        #expect(cache.isConsistent())
    }

    @Test("values that leave the cache are released")
    func valuesReleased() {
        let released = Counter()
        let cache = LRUCache<Int, Tracked>(costLimit: 3, entryCostLimit: 1)
        for key in 0..<5 { cache.set(Tracked(released), forKey: key) }
        #expect(released.value == 2)
        cache.set(Tracked(released), forKey: 4)
        #expect(released.value == 3)
        _ = cache.removeValue(forKey: 3)
        #expect(released.value == 4)
        cache.removeAll()
        #expect(released.value == 6)
    }

    @Test("values leave through every path with the lock no longer held")
    func releasedOutsideTheLock() {
        let released = Counter()
        let underLock = Counter()
        let clock = ManualClock()
        let cache = LRUCache<Int, Tracked>(costLimit: 4, entryCostLimit: 1, now: { clock.now })
        let probe: @Sendable () -> Void = { if cache.isLocked() { underLock.increment() } }
        func store(_ key: Int, cost: Int = 1, ttl: Duration? = nil) -> Bool {
            cache.set(Tracked(released, onDeinit: probe), forKey: key, cost: cost, ttl: ttl)
        }
        for key in 0..<5 { _ = store(key) }  // evicts 0
        _ = store(4)  // replaces 4
        #expect(!store(3, cost: 5))  // refused, drops the old 3
        _ = cache.removeValue(forKey: 2)  // the caller's copy dies here
        _ = store(7, ttl: .seconds(1))
        clock.advance(by: .seconds(2))
        #expect(cache.value(forKey: 7) == nil)  // expired
        cache.costLimit = 1  // trims 1
        cache.trim(toCount: 0)  // trims 4
        _ = store(8)
        cache.removeAll()
        #expect(released.value == 9)
        #expect(underLock.value == 0)
        #expect(!cache.isLocked())
    }

    @Test("many tasks on overlapping keys leave the cache within its limits and consistent")
    func concurrent() async {
        let cache = LRUCache<Int, Int>(costLimit: 5_000, countLimit: 300, entryCostLimit: 0.05)
        let keySpace = 1_000
        let wrongValues = await withTaskGroup(of: Int.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var rng = SplitMix(seed: UInt64(task) + 1)
                    var wrong = 0
                    for _ in 0..<20_000 {
                        let key = Int(rng.next() % UInt64(keySpace))
                        switch rng.next() % 10 {
                        case 0..<5:
                            if let value = cache.value(forKey: key), value != Self.cost(of: key) { wrong += 1 }
                        case 5..<9: cache.set(Self.cost(of: key), forKey: key, cost: Self.cost(of: key))
                        default: _ = cache.removeValue(forKey: key)
                        }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrongValues == 0)
        #expect(cache.isConsistent())
        #expect(cache.totalCost <= cache.costLimit)
        #expect(cache.totalCount <= cache.countLimit)
        var cost = 0, count = 0
        for key in 0..<keySpace {
            guard let value = cache.value(forKey: key) else { continue }
            #expect(value == Self.cost(of: key))
            cost += value
            count += 1
        }
        #expect(count > 0)
        #expect(cost == cache.totalCost)
        #expect(count == cache.totalCount)
    }

    /// Costs 1…300; those above 250 (5 % of 5,000) are refused.
    static func cost(of key: Int) -> Int { key % 300 + 1 }
}

/// A small deterministic generator, so a failure can be replayed.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
