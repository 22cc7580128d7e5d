#if canImport(Glibc)
import Glibc
#endif
import VignetteSupport

/// A thread-safe, cost-limited least-recently-used cache.
///
/// Every operation is O(1) (apart from evictions, which are O(1) each): a dictionary maps a key
/// to the index of its node, and the nodes form a doubly linked list, most recently used first,
/// stored in one contiguous array whose free slots are reused, so an entry costs no allocation of
/// its own.
///
/// All state lives behind one pthread mutex (see `Locked`), so the class is `Sendable`.
/// Values that leave the cache (evicted, replaced, expired, removed) are handed out
/// of the critical section and released after the lock is dropped, so the deinit of a large
/// image never runs while other threads wait for the lock.
///
/// Limits:
/// - `costLimit` and `countLimit`: after every `set`, entries are evicted from the least recently
///   used end until both hold.
/// - `entryCostLimit`: an entry costing more than `entryCostLimit × costLimit` (or more than
///   `costLimit` itself, or any entry when `countLimit < 1`) is refused; refusing a value also
///   removes the older value stored under that key, so a reader never gets a stale one.
/// - `ttl`: an entry whose age has reached its time to live (its own, given to `set`, else the
///   cache's `ttl` at the time of reading) is a miss and is removed when found. Expired entries
///   that are never looked up again leave through ordinary eviction.
///
/// The `now` clock is read before the lock is taken when storing, and inside the lock when a
/// looked-up entry has a time to live; it must not call back into the cache.
package final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let state: Locked<LRUState<Key, Value>>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Creates an empty cache.
    /// - Parameters:
    ///   - costLimit: the most the costs of all entries may add up to (negative counts as 0).
    ///   - countLimit: the most entries the cache holds.
    ///   - ttl: the default time to live of an entry; `nil` for none.
    ///   - entryCostLimit: the largest share of `costLimit` one entry may cost (default 10 %).
    ///   - now: the clock for time to live; tests inject their own.
    package init(
        costLimit: Int, countLimit: Int = .max, ttl: Duration? = nil, entryCostLimit: Double = 0.1,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        let limits = LRULimits(
            cost: max(0, costLimit), count: max(0, countLimit), ttl: ttl, entryCostShare: entryCostLimit)
        self.state = Locked(LRUState(limits: limits))
        self.now = now
    }

    /// The most the costs of all entries may add up to; lowering it evicts at once.
    package var costLimit: Int {
        get { state.withLock { $0.limits.cost } }
        set { _ = state.withLock { $0.limits.cost = max(0, newValue); return $0.trimToLimits() } }
    }

    /// The most entries the cache holds; lowering it evicts at once.
    package var countLimit: Int {
        get { state.withLock { $0.limits.count } }
        set { _ = state.withLock { $0.limits.count = max(0, newValue); return $0.trimToLimits() } }
    }

    /// The time to live of entries stored without one of their own; `nil` for none.
    /// A change applies to entries already stored, on their next lookup.
    package var ttl: Duration? {
        get { state.withLock { $0.limits.ttl } }
        set { state.withLock { $0.limits.ttl = newValue } }
    }

    /// The largest share of `costLimit` one entry may cost; larger entries are not stored.
    /// A change applies to later `set` calls only.
    package var entryCostLimit: Double {
        get { state.withLock { $0.limits.entryCostShare } }
        set { state.withLock { $0.limits.entryCostShare = newValue } }
    }

    /// The value stored for `key`, or `nil`; a hit makes the entry the most recently used.
    package func value(forKey key: Key) -> Value? {
        // The expired value, if any, is released here, after the lock is dropped.
        let (hit, _) = state.withLock { $0.lookup(key, clock: now) }
        return hit
    }

    /// Stores `value` under `key` as the most recently used entry, then evicts the least
    /// recently used entries until the limits hold.
    /// - Parameters:
    ///   - value: what is stored.
    ///   - key: what it is found by.
    ///   - cost: what the entry counts against `costLimit` (for images, their byte size).
    ///   - ttl: this entry's time to live, overriding the cache's `ttl`.
    /// - Returns: `false` when the entry was refused as too costly (see `entryCostLimit`).
    @discardableResult
    package func set(_ value: Value, forKey key: Key, cost: Int = 1, ttl: Duration? = nil) -> Bool {
        let instant = now()
        let (stored, _) = state.withLock {
            $0.insert(value, forKey: key, cost: max(0, cost), ttl: ttl, at: instant)
        }
        return stored
    }

    /// Removes the entry for `key` and returns its value, or `nil` when there was none.
    @discardableResult
    package func removeValue(forKey key: Key) -> Value? {
        state.withLock { $0.remove(key) }
    }

    /// Removes every entry.
    package func removeAll() {
        // The old storage is released here, after the lock is dropped.
        _ = state.withLock { $0.takeAll() }
    }

    /// Evicts least recently used entries until the total cost is at most `cost`.
    package func trim(toCost cost: Int) {
        _ = state.withLock { $0.trim(toCost: cost, toCount: .max) }
    }

    /// Evicts least recently used entries until at most `count` remain.
    package func trim(toCount count: Int) {
        _ = state.withLock { $0.trim(toCost: .max, toCount: count) }
    }

    /// The sum of the costs of the entries stored.
    package var totalCost: Int { state.withLock { $0.totalCost } }

    /// The number of entries stored.
    package var totalCount: Int { state.withLock { $0.count } }

    /// Entries evicted to keep the limits (or by `trim`) since the cache was made: not those
    /// removed, replaced, refused or found expired.
    package var evictionCount: Int { state.withLock { $0.evictions } }

    /// The total cost, the entries, the evictions and the cost limit, read under one lock.
    package var statistics: CacheStatistics {
        state.withLock { CacheStatistics(bytes: $0.totalCost, entries: $0.count, evictions: $0.evictions, byteLimit: $0.limits.cost) }
    }

    /// The keys from the most to the least recently used, for tests.
    func keysByRecency() -> [Key] { state.withLock { $0.keysByRecency() } }

    /// Whether some thread holds the cache's lock, for tests.
    func isLocked() -> Bool { state.isLocked() }

    /// Whether the list, the index and the totals agree, for tests.
    func isConsistent() -> Bool { state.withLock { $0.isConsistent() } }
}

/// The limits of an `LRUCache`.
struct LRULimits: Sendable {
    var cost: Int
    var count: Int
    var ttl: Duration?
    var entryCostShare: Double
}

/// The unsynchronised storage of an `LRUCache`: an index from key to node, and the nodes, a
/// doubly linked list through a contiguous array (most recently used at `head`). Free slots are
/// chained through `next` from `freeHead`. `none` (-1) ends a chain.
struct LRUState<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    struct Node: Sendable {
        var key: Key?
        var value: Value?
        var cost: Int
        var stored: ContinuousClock.Instant
        var ttl: Duration?
        var previous: Int
        var next: Int
    }

    /// Values on their way out, to be released after the lock is dropped; the first two
    /// (one replaced, one evicted: the usual `set`) need no allocation.
    struct Released: Sendable {
        private var first: Value?
        private var second: Value?
        private var rest: [Value] = []

        mutating func append(_ value: Value?) {
            guard let value else { return }
            if case .none = first {
                first = value
            } else if case .none = second {
                second = value
            } else {
                rest.append(value)
            }
        }
    }

    static var none: Int { -1 }

    var limits: LRULimits
    private(set) var totalCost = 0
    /// Entries evicted by `trim` since the cache was made.
    private(set) var evictions = 0
    private var indices: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var head = Self.none
    private var tail = Self.none
    private var freeHead = Self.none

    init(limits: LRULimits) { self.limits = limits }

    var count: Int { indices.count }

    /// The value for `key` (moved to the front), or the value that had expired (removed).
    mutating func lookup(_ key: Key, clock: () -> ContinuousClock.Instant) -> (hit: Value?, expired: Value?) {
        guard let index = indices[key] else { return (nil, nil) }
        if let ttl = nodes[index].ttl ?? limits.ttl, clock() >= nodes[index].stored.advanced(by: ttl) {
            return (nil, release(index))
        }
        moveToFront(index)
        return (nodes[index].value, nil)
    }

    /// Stores the entry, or refuses it; returns the values that left the cache.
    mutating func insert(
        _ value: Value, forKey key: Key, cost: Int, ttl: Duration?, at instant: ContinuousClock.Instant
    ) -> (stored: Bool, released: Released) {
        var released = Released()
        guard accepts(cost: cost) else {
            released.append(remove(key))
            return (false, released)
        }
        if let index = indices[key] {
            released.append(nodes[index].value)
            totalCost += cost - nodes[index].cost
            nodes[index].value = value
            nodes[index].cost = cost
            nodes[index].stored = instant
            nodes[index].ttl = ttl
            moveToFront(index)
        } else {
            let node = Node(
                key: key, value: value, cost: cost, stored: instant, ttl: ttl, previous: Self.none, next: Self.none)
            let index = allocate(node)
            indices[key] = index
            totalCost += cost
            linkAtFront(index)
        }
        trim(toCost: limits.cost, toCount: limits.count, into: &released)
        return (true, released)
    }

    /// Whether an entry of this cost may be stored at all.
    private func accepts(cost: Int) -> Bool {
        limits.count >= 1 && cost <= limits.cost && !(Double(cost) > limits.entryCostShare * Double(limits.cost))
    }

    mutating func remove(_ key: Key) -> Value? {
        guard let index = indices[key] else { return nil }
        return release(index)
    }

    /// Empties the cache, returning the old storage so that it is released by the caller.
    mutating func takeAll() -> ([Key: Int], [Node]) {
        let taken = (indices, nodes)
        indices = [:]
        nodes = []
        head = Self.none
        tail = Self.none
        freeHead = Self.none
        totalCost = 0
        return taken
    }

    mutating func trimToLimits() -> Released { trim(toCost: limits.cost, toCount: limits.count) }

    /// Evicts from the tail until both bounds hold; returns the evicted values.
    mutating func trim(toCost cost: Int, toCount count: Int) -> Released {
        var evicted = Released()
        trim(toCost: cost, toCount: count, into: &evicted)
        return evicted
    }

    private mutating func trim(toCost cost: Int, toCount count: Int, into evicted: inout Released) {
        while (totalCost > cost || indices.count > count) && tail != Self.none {
            evicted.append(release(tail))
            evictions += 1
        }
    }

    /// Unlinks the node, forgets its key and puts its slot on the free list.
    private mutating func release(_ index: Int) -> Value? {
        unlink(index)
        if let key = nodes[index].key.take() { indices[key] = nil }
        totalCost -= nodes[index].cost
        nodes[index].cost = 0
        nodes[index].ttl = nil
        nodes[index].next = freeHead
        freeHead = index
        return nodes[index].value.take()
    }

    private mutating func allocate(_ node: Node) -> Int {
        guard freeHead != Self.none else {
            nodes.append(node)
            return nodes.count - 1
        }
        let index = freeHead
        freeHead = nodes[index].next
        nodes[index] = node
        return index
    }

    private mutating func moveToFront(_ index: Int) {
        guard index != head else { return }
        unlink(index)
        linkAtFront(index)
    }

    private mutating func linkAtFront(_ index: Int) {
        nodes[index].previous = Self.none
        nodes[index].next = head
        if head != Self.none { nodes[head].previous = index } else { tail = index }
        head = index
    }

    private mutating func unlink(_ index: Int) {
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous != Self.none { nodes[previous].next = next } else { head = next }
        if next != Self.none { nodes[next].previous = previous } else { tail = previous }
        nodes[index].previous = Self.none
        nodes[index].next = Self.none
    }

    func keysByRecency() -> [Key] {
        var keys: [Key] = []
        var index = head
        while index != Self.none, keys.count <= nodes.count {
            if let key = nodes[index].key { keys.append(key) }
            index = nodes[index].next
        }
        return keys
    }

    /// Walks the list both ways and checks it against the index and the total cost.
    func isConsistent() -> Bool {
        var forward = 0, cost = 0, index = head, previous = Self.none
        while index != Self.none, forward <= nodes.count {
            guard nodes[index].previous == previous, let key = nodes[index].key, indices[key] == index else {
                return false
            }
            forward += 1
            cost += nodes[index].cost
            previous = index
            index = nodes[index].next
        }
        return previous == tail && forward == indices.count && cost == totalCost
    }
}
