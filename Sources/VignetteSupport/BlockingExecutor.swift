/// The package's one executor for blocking work (file reads, disk-cache writes, name look-ups,
/// Redis calls): threads of its own (`WorkerThread`), started on demand up to `maxThreads` and
/// kept, taking jobs first come, first served. With one thread it is a serial queue. Blocking
/// calls run here so that they never hold a thread of Swift's small cooperative pool, nor of
/// Dispatch's.
package final class BlockingExecutor: Sendable {
    private struct State: Sendable {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var threads = 0
        var idle = 0
    }

    private let state = Locked(State())
    private let maxThreads: Int
    private let onThreadStart: @Sendable () -> Void

    /// An executor of at most `maxThreads` threads; each runs `onThreadStart` first (to name
    /// itself for profilers).
    package init(maxThreads: Int, onThreadStart: @escaping @Sendable () -> Void = {}) {
        self.maxThreads = max(1, maxThreads)
        self.onThreadStart = onThreadStart
    }

    /// For blocking calls made from async code anywhere in the package.
    package static let shared = BlockingExecutor(maxThreads: 16)

    /// Runs `job` on one of the threads, after the jobs given before it have been taken. When no
    /// thread can be had at all, `job` runs on the caller's thread, so none is lost.
    package func execute(_ job: @escaping @Sendable () -> Void) {
        let startThread = state.withLock { state -> Bool in
            state.jobs.append(job)
            if state.idle > 0 { return false }
            guard state.threads < maxThreads else { return false }
            state.threads += 1
            return true
        }
        if !startThread {
            state.signal()
            return
        }
        let (state, onThreadStart) = (state, onThreadStart)
        do {
            try WorkerThread.start {
                onThreadStart()
                while true {
                    let next = state.waitUntil { state, afterWait -> (@Sendable () -> Void)? in
                        if afterWait { state.idle -= 1 }
                        guard state.head < state.jobs.count else {
                            state.idle += 1
                            return nil
                        }
                        let job = state.jobs[state.head]
                        state.head += 1
                        // Drop what was taken once the queue has emptied (or grown long).
                        if state.head == state.jobs.count || state.head > 1024 {
                            state.jobs.removeFirst(state.head)
                            state.head = 0
                        }
                        return job
                    }
                    next()
                }
            }
        } catch {
            // No thread: take the jobs back that no thread will run, and run them here.
            let orphans = state.withLock { state -> [@Sendable () -> Void] in
                state.threads -= 1
                guard state.threads == 0 else { return [] }
                defer { state.jobs = []; state.head = 0 }
                return Array(state.jobs[state.head...])
            }
            for orphan in orphans { orphan() }
        }
    }

    /// `body`'s result, computed on one of the threads and awaited.
    package func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            execute { continuation.resume(with: Result { try body() }) }
        }
    }

    /// `body`'s result, computed on one of the threads and awaited.
    package func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            execute { continuation.resume(returning: body()) }
        }
    }
}
