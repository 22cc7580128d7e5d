internal import CVignetteImageShims
internal import CVignetteVips

/// Stops a decode that nobody waits for any more: `cancel()` from any thread, and the libvips
/// computation it was handed to (`Thumbnailer.thumbnail(_:cancellation:)`,
/// `ImageDecoder.decode(_:cancellation:)`, `Image.materialized(cancellation:)`) stops at its next
/// tile, through libvips' kill flag (`vips_image_set_kill`, set from an "eval" signal handler),
/// and fails with `ImagingError.Kind.cancelled`.
///
/// `Sendable`: its only state is three C ints, read and written atomically.
public final class ImagingCancellation: @unchecked Sendable {
    /// [0]: stop asked; [1]: libvips was told to stop; [2]: a watched computation has begun.
    private let flag: UnsafeMutablePointer<Int32>

    /// A cancellation not yet asked for.
    public init() {
        flag = .allocate(capacity: 3)
        flag.initialize(repeating: 0, count: 3)
    }

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
        }
    }
}
