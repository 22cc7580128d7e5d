import Foundation
import Testing
import TestTiming
import VignetteSupport

@Suite("Locked.waitUntil: a waiting thread sees what others change")
struct LockedWaitTests {
    @Test("a thread waits until another has added three items, seeing each change after its wait")
    func waitsForChanges() async throws {
        let state = Locked((items: [Int](), attempts: 0, afterWaits: 0))
        let done = Locked<[Int]?>(nil)
        try WorkerThread.start {
            let taken = state.waitUntil { state, afterWait -> [Int]? in
                state.attempts += 1
                if afterWait { state.afterWaits += 1 }
                return state.items.count == 3 ? state.items : nil
            }
            done.withLock { $0 = taken }
        }
        // The first attempt has found nothing, so the thread waits for what follows.
        #expect(await eventually { state.withLock { $0.attempts } > 0 })
        for item in 1...3 {
            try await Task.sleep(for: .milliseconds(20))
            state.withLock { $0.items.append(item) }
            state.signal()
        }
        // However long the sleeps above took on a loaded machine, the wait for the result is whole.
        #expect(await eventually { done.withLock { $0 } != nil })
        #expect(done.withLock { $0 } == [1, 2, 3])
        // Every attempt but the first follows a wait.
        let (attempts, afterWaits) = state.withLock { ($0.attempts, $0.afterWaits) }
        #expect(attempts >= 2 && afterWaits == attempts - 1)
    }
}
