#if canImport(Glibc)
import Glibc
#endif

/// How much longer the tests wait for things to happen under a sanitizer: `VIGNETTE_TEST_TIME_SCALE`
/// (Scripts/sanitize.sh sets it), 1 otherwise. ThreadSanitizer makes CPU-bound tests that run on
/// Swift's cooperative pool 10 times slower, and while they hold the pool's threads (two on two
/// cores) the other tests' tasks wait for minutes before they run at all.
public let testTimeScale: Double = {
    guard let text = getenv("VIGNETTE_TEST_TIME_SCALE").map({ String(cString: $0) }), let scale = Double(text), scale >= 1
    else { return 1 }
    return scale
}()

/// Whether `condition` holds within `seconds` (times `testTimeScale`), checked every 2 ms: for
/// what another task or thread makes happen. A wait that runs out only fails the expectation.
public func eventually(_ seconds: Double = 120, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * testTimeScale * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}
