internal import CVignetteImageShims
internal import CVignetteVips
import VignetteSupport

/// Process-wide libvips state: initialised once, explicitly by `start()` or lazily on first use.
///
/// Initialisation (`VIPS_INIT`) runs exactly once through a `static let`, so concurrent first calls
/// never race `vips_init`. A program that can (the `vignette` command, a server) calls `start()`
/// first thing in `main`, while no other thread runs: libvips then loads none of its dynamic
/// modules up front (the trusted ones, heif and jxl, are opened when their bytes first turn up),
/// which shortens a process's start (docs/performance.md), and pointing it there means writing the
/// environment (`VIPSHOME`), which is only safe then. Lazily, from whatever thread comes first,
/// libvips starts with its modules as installed and the environment is never written. It also blocks libvips' untrusted loaders (`vips_block_untrusted_set`:
/// the Debian build's ImageMagick loaders and the file and buffer forms of the PDF and SVG ones,
/// which corrupt input must never reach; JPEG XL's loader and saver, which libvips 8.14 flags
/// untrusted too, are let through: see `ImageDecoder`, and so are the SVG and PDF source loaders,
/// behind `SVGSanitizer` and `DecodingLimits.allowedInputs`) and turns
/// libvips' operation cache off (`vips_cache_set_max(0)`): callers cache what matters.
public enum ImagingRuntime {
    private static let explicitStart = Locked(false)
    /// Set once libvips has started: before that, no thread has per-thread libvips state.
    private static let started = Locked(false)

    private static let initialisation: Result<Void, ImagingError> = {
        if vgn_init("vignette", explicitStart.withLock { $0 } ? 1 : 0) != 0 {
            return .failure(ImagingError(.operationFailed, "vips_init failed: \(VipsErrors.take())"))
        }
        started.withLock { $0 = true }
        return .success(())
    }()

    /// Starts libvips now (`VIPS_INIT`), loading only its trusted modules, on demand. Call it once,
    /// first thing in `main`, before any other thread runs; a later call, or one after libvips
    /// started lazily, changes nothing.
    public static func start() throws(ImagingError) {
        explicitStart.withLock { $0 = true }
        try ensureInitialised()
    }

    /// Makes sure libvips is initialised; every public entry point calls this first.
    static func ensureInitialised() throws(ImagingError) {
        try initialisation.get()
    }

    /// The number of worker threads libvips uses for one image (`vips_concurrency_set`).
    ///
    /// For a service handling many requests at once, 1 thread per image and many images in
    /// parallel gives the best throughput; for one big image at a time, the core count does.
    public static var threadsPerImage: Int {
        get {
            _ = try? ensureInitialised()
            return Int(vips_concurrency_get())
        }
        set {
            _ = try? ensureInitialised()
            vips_concurrency_set(Int32(max(1, newValue)))
        }
    }

    /// Shares `cores` between `lanes` images made at once: with more than one lane, each image
    /// gets `cores / lanes` libvips threads (at least 1, `threadsPerImage`), so the lanes do not
    /// outnumber the cores with threads that wait for each other; one lane keeps them all. The
    /// batch command's `--jobs` and the server's pipeline (one decode per core at once) use it.
    public static func shareCores(_ cores: Int, among lanes: Int) {
        if lanes > 1 { threadsPerImage = max(1, cores / lanes) }
    }

    /// Caps glibc's malloc arenas at `count` (`mallopt(M_ARENA_MAX)`), unless the process was
    /// started with `MALLOC_ARENA_MAX` set (glibc reads that itself). glibc gives threads that
    /// allocate under contention arenas of their own, up to 8 per core, and libvips' large,
    /// short-lived pixel buffers leave them fragmented, so a long-running server's memory creeps up;
    /// imgproxy's images run with 2. Call it at start, before the threads that decode exist.
    /// - Returns: whether the cap was set.
    @discardableResult
    public static func limitMallocArenas(to count: Int) -> Bool {
        guard getenv("MALLOC_ARENA_MAX") == nil, count > 0 else { return false }
        return vgn_set_malloc_arena_max(Int32(clamping: count)) == 1
    }

    /// Keeps memory that images free for the images after them: glibc's malloc otherwise gives a
    /// buffer over 128 KB back to the kernel when it is freed (`munmap`, or an arena trimmed with
    /// `madvise`), and the next image's buffers fault in freshly zeroed pages again. Raises
    /// `M_MMAP_THRESHOLD` to 32 MB and `M_TRIM_THRESHOLD` to 64 MB (`mallopt`), unless the process
    /// was started with `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TRIM_THRESHOLD_` set. For a process that
    /// makes a run of images and ends (the batch command); a long-running server keeps glibc's
    /// defaults, which hand memory back.
    /// - Returns: whether the thresholds were set.
    @discardableResult
    public static func keepFreedMemoryForReuse() -> Bool {
        guard getenv("MALLOC_MMAP_THRESHOLD_") == nil, getenv("MALLOC_TRIM_THRESHOLD_") == nil else { return false }
        return vgn_keep_freed_memory(32 << 20, 64 << 20) == 1
    }

    /// Names the calling thread `name` (cut to the 15 bytes Linux keeps), as profilers and
    /// `top -H` show it: threads a caller starts for image work.
    package static func nameCurrentThread(_ name: String) {
        vgn_name_thread(name)
    }

    /// Frees libvips' per-thread buffers (`vips_thread_shutdown`). A thread that the caller made
    /// and that called into VignetteCodecs calls this just before it ends; threads of Swift's
    /// cooperative pool and of Dispatch live on and need not. Before libvips has started it does
    /// nothing: `vips_thread_shutdown` then reaches GLib state that does not exist yet (a thread of
    /// a pipeline that only read files and downloaded crashed there).
    public static func threadWillExit() {
        guard started.withLock({ $0 }) else { return }
        vips_thread_shutdown()
    }

    /// The versions of the C libraries in use, e.g. `["libvips": "8.14.1", ...]`.
    public static var libraryVersions: [String: String] {
        _ = try? ensureInitialised()
        var versions: [String: String] = [:]
        versions["libvips"] = "\(vips_version(0)).\(vips_version(1)).\(vips_version(2))"
        versions["libheif"] = HEIFVersion.string
        versions["libwebp"] = WebPVersion.string
        return versions
    }
}
