import Testing
import Vignette
import VignetteServer
import TestTiming
import VignetteSupport

@Suite("Admission: N at once, a bounded queue, 503 past it")
struct AdmissionTests {
    /// A gate the test opens: bodies wait on it.
    final class Gate: Sendable {
        private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
        func wait() async {
            await withCheckedContinuation { continuation in
                let open = state.withLock { state -> Bool in
                    if !state.open { state.waiters.append(continuation) }
                    return state.open
                }
                if open { continuation.resume() }
            }
        }
        func open() {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    @Test("2 running, 3 waiting: the 6th is refused at once; all admitted ones finish; never more than 2 at once")
    func bounded() async throws {
        let admission = Admission(maxRunning: 2, maxWaiting: 3)
        let gate = Gate()
        let peak = Locked((now: 0, peak: 0))
        let tasks = (0..<5).map { _ in
            Task {
                try await admission.run {
                    peak.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                    await gate.wait()
                    peak.withLock { $0.now -= 1 }
                }
            }
        }
        #expect(await eventually { admission.running == 2 && admission.waiting == 3 })
        await #expect(throws: Admission.Refusal.overloaded) { try await admission.run {} }
        gate.open()
        for task in tasks { try await task.value }
        #expect(peak.withLock { $0.peak } == 2)
        #expect(admission.running == 0 && admission.waiting == 0)
        try await admission.run {}  // free again
    }

    @Test("a waiter whose task is cancelled leaves the queue and frees its place")
    func cancelledWaiter() async throws {
        let admission = Admission(maxRunning: 1, maxWaiting: 1)
        let gate = Gate()
        let running = Task { try await admission.run { await gate.wait() } }
        #expect(await eventually { admission.running == 1 })
        let waiter = Task { try await admission.run {} }
        #expect(await eventually { admission.waiting == 1 })
        waiter.cancel()
        await #expect(throws: Admission.Refusal.cancelled) { try await waiter.value }
        #expect(admission.waiting == 0)
        // Its place is free for the next one.
        let next = Task { try await admission.run {} }
        #expect(await eventually { admission.waiting == 1 })
        gate.open()
        try await running.value
        try await next.value
        #expect(admission.running == 0)
    }
}
