internal import CVignetteImageShims
internal import CVignetteVips

/// Stops a decode that nobody waits for any more: `cancel()` from any thread, and the libvips
/// computation it was handed to (`Thumbnailer.thumbnail(_:cancellation:)`,
/// `ImageDecoder.decode(_:cancellation:)`, `Image.materialized(cancellation:)`) stops at its next
/// tile, through libvips' kill flag (`vips_image_set_kill`, set from an "eval" signal handler),
/// and fails with `ImagingError.Kind.cancelled`.
///
/// It also carries a render deadline (`stopping(after:)`): past it, the computation stops the same
/// way and fails with `ImagingError.Kind.limitExceeded` (the render-time limit of SVG and PDF).
///
/// `Sendable`: its only state is five C ints, read and written atomically.
public final class ImagingCancellation: @unchecked Sendable {
    /// [0]: stop asked; [1]: libvips was told to stop; [2]: a watched computation has begun;
    /// [3]: a deadline in monotonic seconds (0: none); [4]: the deadline stopped the computation.
    private let flag: UnsafeMutablePointer<Int32>

    /// A cancellation not yet asked for.
    public init() {
        flag = .allocate(capacity: 5)
        flag.initialize(repeating: 0, count: 5)
    }

    /// Sets a deadline `seconds` from now (kept when an earlier one is set already): a computation
    /// it watches that runs past it stops and fails with `ImagingError.Kind.limitExceeded`.
    package func stopping(after seconds: Int) {
        let deadline = vgn_monotonic_seconds() + Int32(clamping: max(1, seconds))
        let current = vgn_atomic_get(flag + 3)
        if current == 0 || deadline < current { vgn_atomic_store(flag + 3, deadline) }
    }

    /// Whether the deadline stopped a computation.
    var didPassDeadline: Bool { vgn_atomic_get(flag + 4) != 0 }

    deinit { flag.deallocate() }

    /// Asks the computation to stop.
    public func cancel() { vgn_atomic_set(flag) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { vgn_atomic_get(flag) != 0 }

    /// Whether libvips stopped a computation because of it (a seam for tests).
    public var didStopComputation: Bool { vgn_atomic_get(flag + 1) != 0 }

    /// Whether a computation it watches has begun (libvips' first "eval"): a seam for tests that
    /// cancel part-way.
    package var didStartComputation: Bool { vgn_atomic_get(flag + 2) != 0 }

    /// Runs `body` with `image`'s evaluation watched.
    func watching<T>(_ image: UnsafeMutablePointer<VipsImage>, _ body: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        if isCancelled { throw ImagingError(.cancelled, "cancelled before decoding") }
        let handler = vgn_cancel_watch(image, flag)
        defer { vgn_cancel_unwatch(image, handler) }
        do {
            return try body()
        } catch where isCancelled {
            throw ImagingError(.cancelled, "cancelled while decoding (\(error.message))")
        } catch where didPassDeadline {
            throw ImagingError(.limitExceeded, "rendering took longer than the time limit (\(error.message))")
        }
    }
}
