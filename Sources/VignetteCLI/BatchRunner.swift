import Foundation
import Vignette
import VignetteSupport

/// Runs `work` over `count` items on `jobs` threads of its own, taking items in order; stops
/// taking new ones once `shouldStop()` says so. Returns the results by index (nil for items never
/// started).
///
/// Threads of its own, not Dispatch's global queues: each job waits for the pipeline's async work
/// (`AsyncBridge`), and a waiting thread borrowed from the pool that also serves Swift's tasks
/// would hold back the very tasks it waits for.
enum BatchRunner {
    private final class Shared<Result: Sendable>: Sendable {
        let next = Locked(0)
        let results: Locked<[Result?]>
        init(count: Int) { results = Locked(Array(repeating: nil, count: count)) }

        func take() -> Int { next.withLock { next in defer { next += 1 }; return next } }
    }

    static func run<Result: Sendable>(
        count: Int, jobs: Int, shouldStop: @escaping @Sendable () -> Bool,
        _ work: @escaping @Sendable (Int) -> Result
    ) -> [Result?] {
        let shared = Shared<Result>(count: count)
        let lanes = max(1, min(jobs, count))
        let finished = Locked(0)
        let lane: @Sendable () -> Void = {
            while !shouldStop() {
                let index = shared.take()
                if index >= count { break }
                let result = work(index)
                shared.results.withLock { $0[index] = result }
            }
        }
        var started = 0
        for _ in 0..<lanes {
            do {
                try WorkerThread.start {
                    lane()
                    finished.withLock { $0 += 1 }
                    finished.broadcast()
                }
                started += 1
            } catch {
                break  // as many lanes as the system gives; the caller's thread is one below
            }
        }
        if started == 0 { lane() }
        finished.withLock { done, wait in
            while done < started { wait() }
        }
        return shared.results.withLock { $0 }
    }
}
