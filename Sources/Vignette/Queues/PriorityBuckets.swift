/// FIFO queues per priority: `pop` takes the oldest item of the highest priority. An item whose
/// priority changes is re-appended under its new priority; its old entry is skipped when reached
/// (its `generation` no longer matches).
struct PriorityBuckets<Item: AnyObject> {
    private var buckets: [[(item: Item, generation: Int)]] = Array(repeating: [], count: ImageRequest.Priority.allCases.count)
    private var heads: [Int] = Array(repeating: 0, count: ImageRequest.Priority.allCases.count)

    mutating func push(_ item: Item, priority: ImageRequest.Priority, generation: Int) {
        buckets[priority.rawValue].append((item, generation))
    }

    /// The next live item: `isLive` says whether an entry (item, generation) still counts.
    mutating func pop(isLive: (Item, Int) -> Bool) -> Item? {
        for level in stride(from: buckets.count - 1, through: 0, by: -1) {
            while heads[level] < buckets[level].count {
                let entry = buckets[level][heads[level]]
                heads[level] += 1
                if heads[level] > 64, heads[level] * 2 > buckets[level].count {
                    buckets[level].removeFirst(heads[level])
                    heads[level] = 0
                }
                if isLive(entry.item, entry.generation) { return entry.item }
            }
        }
        return nil
    }
}

extension PriorityBuckets: Sendable where Item: Sendable {}
