#if canImport(Glibc)
import Glibc
#endif

/// A CPU stage (decoding, processing, encoding): synchronous work on threads of its own
/// (`pthread`s started on demand up to `maxConcurrent`, ended by `shutdown()`), never on Swift's
/// cooperative pool, which a blocking libvips call would starve. Highest priority first, oldest
/// first within a priority.
final class ThreadStage: @unchecked Sendable {
    // Everything below `lock` is guarded by it; `condition` wakes idle threads.
    private var lock = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var buckets = PriorityBuckets<WorkItem>()
    private var jobs: [ObjectIdentifier: @Sendable () -> Void] = [:]
    private var threads = 0
    /// Threads waiting on `condition`.
    private var idle = 0
    /// Signals sent to idle threads that no thread has woken up for yet: an idle thread already
    /// signalled is not available for the next item, which must wake another or start one.
    private var wakeups = 0
    private var isShutDown = false
    private var started = 0

    let name: String
    let maxConcurrent: Int
    private let metrics: StageMetrics?

    init(name: String, maxConcurrent: Int, metrics: StageMetrics? = nil) {
        self.name = name
        self.maxConcurrent = max(1, maxConcurrent)
        self.metrics = metrics
        pthread_mutex_init(&lock, nil)
        pthread_cond_init(&condition, nil)
    }

    deinit {
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&lock)
    }

    /// How many items have started so far (a seam for tests of ordering).
    var startedCount: Int { locked { started } }
    /// How many items wait to start.
    var queuedCount: Int { locked { jobs.count } }

    /// Queues `job`; `onCancelledBeforeStart` runs instead if the item is cancelled before it starts.
    func enqueue(priority: ImageRequest.Priority, onCancelledBeforeStart: @escaping @Sendable () -> Void = {},
                 _ job: @escaping @Sendable () -> Void) -> WorkItem {
        let item = WorkItem(
            priority: priority, onCancelledBeforeStart: onCancelledBeforeStart,
            cancel: { [weak self] item in self?.cancel(item) },
            setPriority: { [weak self] item, priority in self?.setPriority(item, priority) })
        let (accepted, startThread) = locked { () -> (Bool, Bool) in
            guard !isShutDown else { return (false, false) }
            jobs[ObjectIdentifier(item)] = job
            buckets.push(item, priority: priority, generation: item.generation)
            metrics?.depth.record(jobs.count)
            if idle > wakeups {
                wakeups += 1
                pthread_cond_signal(&condition)
                return (true, false)
            }
            if threads < maxConcurrent {
                threads += 1
                return (true, true)
            }
            return (true, false)
        }
        if !accepted {
            item.state = .cancelled
            onCancelledBeforeStart()
        } else if startThread {
            WorkerThread.start(named: "vignette-" + name) { [self] in workerLoop() }
        }
        return item
    }

    func shutdown() {
        var cancelled: [WorkItem] = []
        locked {
            isShutDown = true
            while let item = buckets.pop(isLive: isLive) {
                item.state = .cancelled
                jobs[ObjectIdentifier(item)] = nil
                cancelled.append(item)
            }
            pthread_cond_broadcast(&condition)
        }
        for item in cancelled { item.onCancelledBeforeStart() }
    }

    private func cancel(_ item: WorkItem) {
        let removed = locked { () -> Bool in
            guard item.state == .queued else { return false }
            item.state = .cancelled
            jobs[ObjectIdentifier(item)] = nil
            return true
        }
        if removed { item.onCancelledBeforeStart() }
    }

    private func setPriority(_ item: WorkItem, _ priority: ImageRequest.Priority) {
        locked {
            guard item.state == .queued, item.priority != priority else { return }
            item.priority = priority
            item.generation += 1
            buckets.push(item, priority: priority, generation: item.generation)
        }
    }

    private func isLive(_ item: WorkItem, _ generation: Int) -> Bool {
        item.state == .queued && item.generation == generation
    }

    private func workerLoop() {
        while true {
            pthread_mutex_lock(&lock)
            var next: (WorkItem, @Sendable () -> Void)?
            while !isShutDown {
                if let item = buckets.pop(isLive: isLive), let job = jobs.removeValue(forKey: ObjectIdentifier(item)) {
                    item.state = .running
                    started += 1
                    next = (item, job)
                    metrics?.depth.record(jobs.count)
                    metrics?.wait.recordInterval(since: item.queuedAt)
                    break
                }
                idle += 1
                pthread_cond_wait(&condition, &lock)
                idle -= 1
                // Whoever wakes takes a signal's place (a spurious wake-up finds the item instead).
                if wakeups > 0 { wakeups -= 1 }
            }
            pthread_mutex_unlock(&lock)
            guard let (item, job) = next else { break }
            job()
            locked { item.state = .finished }
        }
        locked { threads -= 1 }
        ImagingRuntime.threadWillExit()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return body()
    }
}

/// Starts a detached pthread running `body`.
enum WorkerThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts it named `name` (`ImagingRuntime.nameCurrentThread`).
    static func start(named name: String, _ body: @escaping () -> Void) {
        let box = Unmanaged.passRetained(Box({
            ImagingRuntime.nameCurrentThread(name)
            body()
        })).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        // libvips recurses deeply on big pipelines: give workers a generous stack.
        pthread_attr_setstacksize(&attributes, 8 << 20)
        let status = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
            box.body()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        if status != 0 {
            // No thread: run the work here rather than lose it.
            Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
        }
    }
}
