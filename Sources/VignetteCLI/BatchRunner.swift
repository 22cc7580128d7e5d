import Dispatch
import Synchronization

/// Runs `work` over `count` items on `jobs` threads (Dispatch's, not Swift's cooperative pool),
/// taking items in order; stops taking new ones once `shouldStop()` says so. Returns the results
/// by index (nil for items never started).
enum BatchRunner {
    private final class Shared<Result: Sendable>: Sendable {
        let next = Atomic<Int>(0)
        let results: Mutex<[Result?]>
        init(count: Int) { results = Mutex(Array(repeating: nil, count: count)) }
    }

    static func run<Result: Sendable>(
        count: Int, jobs: Int, shouldStop: @escaping @Sendable () -> Bool,
        _ work: @escaping @Sendable (Int) -> Result
    ) -> [Result?] {
        let shared = Shared<Result>(count: count)
        let group = DispatchGroup()
        for _ in 0..<max(1, min(jobs, count)) {
            DispatchQueue.global().async(group: group) {
                while !shouldStop() {
                    let index = shared.next.add(1, ordering: .relaxed).oldValue
                    if index >= count { break }
                    let result = work(index)
                    shared.results.withLock { $0[index] = result }
                }
            }
        }
        group.wait()
        return shared.results.withLock { $0 }
    }
}
