#if canImport(Glibc)
import Glibc
#endif

/// The package's one way to start a thread of its own: a detached pthread with an 8 MiB stack
/// (libvips recurses deeply on big pipelines). Every thread Vignette makes comes from here; the
/// body names its thread for profilers (`ImagingRuntime.nameCurrentThread`, a C shim: glibc's
/// `pthread_setname_np` is not visible to Swift).
package enum WorkerThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread; throws the `SystemError` of `pthread_create` when no thread
    /// can be had, and `body` then does not run.
    package static func start(_ body: @escaping () -> Void) throws(SystemError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 8 << 20)
        let status = pthread_create(&thread, &attributes, { argument in
            guard let argument else { return nil }
            Unmanaged<Box>.fromOpaque(argument).takeRetainedValue().body()
            return nil
        }, box)
        if status != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SystemError("pthread_create", code: status)
        }
    }
}
