import VignetteSupport

/// The results being made in admission slots now, by result key. A request for one of them joins
/// the work under way (the pipeline does equal work once) instead of taking a slot or a place in
/// the queue: it adds no work, and counting it as work of its own would make a burst of equal
/// requests look like a queue that cannot be served in time.
package final class ResultsUnderWay: Sendable {
    private let counts = Locked<[String: Int]>([:])

    /// Whether the result of `key` is being made in a slot now.
    func contains(_ key: String) -> Bool { counts.withLock { $0[key] != nil } }

    /// `body`'s result, with `key` counted as under way while it runs.
    func making<T: Sendable>(_ key: String, _ body: () async throws -> T) async throws -> T {
        counts.withLock { $0[key, default: 0] += 1 }
        defer {
            counts.withLock { counts in
                if let count = counts[key], count > 1 { counts[key] = count - 1 } else { counts[key] = nil }
            }
        }
        return try await body()
    }
}
