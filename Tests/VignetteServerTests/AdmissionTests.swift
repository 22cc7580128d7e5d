import Testing
import Vignette
import TestTiming
import VignetteSupport
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

@Suite("Admission: N at once, a queue bounded by the expected wait, 503 past it")
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

    /// An admission (by default one that queues whatever the expected wait, up to `maxWaiting`)
    /// and the count of the requests it refused.
    static func counted(
        slots: Int, maxQueueWait: Duration = .seconds(3600), timeout: Duration = .seconds(7200), maxWaiting: Int = 1000
    ) -> (Admission, Locked<Int>) {
        let refusals = Locked(0)
        let admission = Admission(
            slots: slots, maxQueueWait: maxQueueWait, timeout: timeout, maxWaiting: maxWaiting, onRefusal: { refusals.withLock { $0 += 1 } })
        return (admission, refusals)
    }

    /// `counted(slots: 1, …)` with its slot taken by a request that holds it until the gate opens.
    static func held(
        maxQueueWait: Duration = .seconds(3600), timeout: Duration = .seconds(7200), maxWaiting: Int = 1000
    ) async -> (admission: Admission, refusals: Locked<Int>, gate: Gate, holder: Task<Void, any Error>) {
        let (admission, refusals) = counted(slots: 1, maxQueueWait: maxQueueWait, timeout: timeout, maxWaiting: maxWaiting)
        let gate = Gate()
        let holder = Task { try await admission.run { await gate.wait() } }
        #expect(await eventually { admission.running == 1 })
        return (admission, refusals, gate, holder)
    }

    @Test("2 running, 3 waiting at most: the 6th is refused at once; all admitted ones finish; never more than 2 at once")
    func bounded() async throws {
        let (admission, refusals) = Self.counted(slots: 2, maxWaiting: 3)
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
        #expect(admission.snapshot.refusesNow)
        await #expect(throws: Admission.Refusal.self) { try await admission.run {} }
        #expect(refusals.withLock { $0 } == 1)
        gate.open()
        for task in tasks { try await task.value }
        #expect(peak.withLock { $0.peak } == 2)
        #expect(admission.running == 0 && admission.waiting == 0)
        #expect(admission.snapshot.serviceTime != nil && !admission.snapshot.refusesNow)
        try await admission.run {}  // free again
    }

    @Test("before any service time is known requests wait; then one expected to wait past the target is refused at once with a Retry-After")
    func expectedWait() async throws {
        let (admission, _, gate, holder) = await Self.held(maxQueueWait: .milliseconds(50))
        // Nothing has finished yet: nothing is known of the service time, and a newcomer waits.
        #expect(admission.snapshot.serviceTime == nil && !admission.snapshot.refusesNow)
        let waiter = Task { try await admission.run { try await Task.sleep(for: .milliseconds(100)) } }
        #expect(await eventually { admission.waiting == 1 })
        // The holder and the waiter keep their slot 100 ms or more: the service time is then at
        // least 90 % of that.
        try await Task.sleep(for: .milliseconds(100))
        gate.open()
        try await holder.value
        try await waiter.value
        #expect(try #require(admission.snapshot.serviceTime) >= .milliseconds(90))
        // Held again, the slot would not free within 50 ms for a newcomer (first in the queue).
        let regate = Gate()
        let holding = Task { try await admission.run { await regate.wait() } }
        #expect(await eventually { admission.running == 1 })
        #expect(admission.snapshot.expectedWait > .milliseconds(50))
        #expect(admission.snapshot.refusesNow)
        do {
            try await admission.run {}
            Issue.record("admitted")
        } catch let refusal as Admission.Refusal {
            guard case .overloaded(let retryAfter) = refusal else { Issue.record("\(refusal)"); return }
            #expect(retryAfter >= 1)
        }
        #expect(admission.waiting == 0)
        regate.open()
        try await holding.value
        #expect(!admission.snapshot.refusesNow)
    }

    @Test("waiters that a newer service time says would not be served within the timeout are refused then, the newest first")
    func shedFromTheTail() async throws {
        let (admission, refusals, gate, holder) = await Self.held(timeout: .milliseconds(400))
        // Queued while the estimate is still short.
        let waiters = (0..<3).map { _ in Task { try await admission.run {} } }
        #expect(await eventually { admission.waiting == 3 })
        // The holder keeps its slot past the timeout: its time says the queue cannot be served.
        try await Task.sleep(for: .milliseconds(500))
        gate.open()
        try await holder.value
        var served = 0
        for waiter in waiters {
            do {
                try await waiter.value
                served += 1
            } catch let refusal as Admission.Refusal {
                guard case .overloaded = refusal else { Issue.record("\(refusal)"); continue }
            }
        }
        // The first waiter got the slot; the two behind it were refused.
        #expect(served == 1)
        #expect(refusals.withLock { $0 } == 2)
        #expect(admission.running == 0 && admission.waiting == 0)
    }

    @Test("a slow first request does not get a queue of quick ones refused: only a waiter whose time has really run out is")
    func slowFirstSample() async throws {
        let (admission, refusals, gate, holder) = await Self.held(timeout: .seconds(120))
        // 40 quick requests queued behind one that holds the slot 5 s: by that one time alone the
        // last would start after 200 s, past the timeout; the quick ones really take 40 × ~0 (the
        // generous timeout leaves room for a machine loaded by other tests).
        let waiters = (0..<40).map { _ in Task { try await admission.run {} } }
        #expect(await eventually { admission.waiting == 40 })
        try await Task.sleep(for: .seconds(5))
        gate.open()
        try await holder.value
        for waiter in waiters { try await waiter.value }
        #expect(refusals.withLock { $0 } == 0)
        // The service time is the lower quartile of the recent ones: the quick ones, not the slow first.
        #expect(try #require(admission.snapshot.serviceTime) < .seconds(1))
    }

    @Test("a waiter whose task is cancelled leaves the queue and frees its place")
    func cancelledWaiter() async throws {
        let (admission, _, gate, running) = await Self.held(maxWaiting: 1)
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
