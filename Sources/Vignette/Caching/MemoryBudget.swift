#if canImport(Glibc)
import Glibc
#endif
import VignetteSupport

/// How much memory this process may use, and the default size of the image cache derived from it.
///
/// On a server the host's RAM is the wrong measure: a container or a systemd unit usually runs
/// under a cgroup memory limit far below it, and a cache sized from the host's RAM gets the
/// process killed. So the cgroup limit wins when there is one.
@usableFromInline package enum MemoryBudget {
    /// The share of `availableToProcess()` the image cache may take by default.
    package static let defaultImageCacheShare = 0.2
    /// The most the image cache takes by default, whatever the memory: 1 GiB.
    package static let defaultImageCacheCap = 1 << 30

    /// Bytes this process may really use: `processLimit()`'s bytes.
    @usableFromInline package static func availableToProcess() -> Int {
        processLimit().bytes
    }

    /// The memory this process may use and where that figure came from.
    package struct Limit: Sendable, Equatable {
        /// Bytes.
        package var bytes: Int
        /// "physical memory", or the cgroup file that set it (e.g. `/sys/fs/cgroup/memory.max`).
        package var source: String
    }

    /// The smallest of physical memory (`_SC_PHYS_PAGES × _SC_PAGESIZE`) and every cgroup memory
    /// limit that applies — cgroup v2 `memory.max` (`/sys/fs/cgroup/memory.max`, and those of the
    /// process's own cgroup and its ancestors), or cgroup v1 `memory.limit_in_bytes`
    /// (`/sys/fs/cgroup/memory/...`) when it is not the huge "unlimited" value — with where it came from.
    package static func processLimit() -> Limit {
        let ownCgroups = SmallTextFile.read("/proc/self/cgroup").map(cgroupLimitFiles(procSelfCgroup:)) ?? []
        let files = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] + ownCgroups
        var limit = Limit(bytes: physicalMemory(), source: "physical memory")
        for file in files {
            if let bytes = SmallTextFile.read(file).flatMap(parseCgroupLimit), bytes < limit.bytes {
                limit = Limit(bytes: bytes, source: "cgroup " + file)
            }
        }
        return limit
    }

    /// The share of `availableToProcess()` the encoded-result cache takes by default.
    package static let defaultEncodedCacheDivisor = 20
    /// The most the encoded-result cache takes by default: 256 MiB.
    package static let defaultEncodedCacheCap = 256 << 20

    /// The default cost limit of the encoded-result cache (`EncodedImageCache`), in bytes: a
    /// twentieth of `availableToProcess()`, at most 256 MiB.
    @usableFromInline package static func defaultEncodedCacheCostLimit() -> Int {
        defaultEncodedCacheCostLimit(available: availableToProcess())
    }

    /// The default cost limit of the encoded-result cache for a given number of available bytes.
    package static func defaultEncodedCacheCostLimit(available: Int) -> Int {
        min(max(0, available) / defaultEncodedCacheDivisor, defaultEncodedCacheCap)
    }

    /// The default cost limit of the image cache, in bytes: 20 % of `availableToProcess()`,
    /// at most 1 GiB. A fifth leaves room for the decodes, processing and encodes in flight
    /// (each of which may hold several full-size images) and for the rest of the process; the
    /// cap keeps a big host from parking gigabytes of thumbnails that a disk cache serves as well.
    @usableFromInline package static func defaultImageCacheCostLimit() -> Int {
        defaultImageCacheCostLimit(available: availableToProcess())
    }

    /// The default cost limit for a given number of available bytes.
    static func defaultImageCacheCostLimit(available: Int) -> Int {
        min(Int(Double(max(0, available)) * defaultImageCacheShare), defaultImageCacheCap)
    }

    /// Physical memory in bytes, or `Int.max` when the system does not say.
    static func physicalMemory() -> Int {
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, pageSize > 0 else { return .max }
        let (bytes, overflow) = pages.multipliedReportingOverflow(by: pageSize)
        return overflow ? .max : bytes
    }

    /// The limit in a cgroup memory file: `nil` for "max" (v2), for v1's "unlimited" value
    /// (a page-rounded `Int64.max`, anything of 2^60 bytes or more counts), for zero or
    /// negative numbers and for anything that is not a number.
    static func parseCgroupLimit(_ text: String) -> Int? {
        let trimmed = text.trimmingWhitespace()
        guard let value = Int(trimmed), value > 0, value < 1 << 60 else { return nil }
        return value
    }

    /// The limit files of the process's own cgroups and their ancestors, from the contents of
    /// `/proc/self/cgroup` (`0::/path` for v2, `N:…memory…:/path` for v1).
    static func cgroupLimitFiles(procSelfCgroup text: String) -> [String] {
        cgroupFiles(procSelfCgroup: text, v2File: "memory.max", v1: ("memory", "memory.limit_in_bytes"))
    }

    /// The files named `v2File` (cgroup v2) or `v1.file` (cgroup v1, under the `v1.controller`
    /// hierarchy) of the process's own cgroups and their ancestors, from `/proc/self/cgroup`;
    /// a nil name leaves that version out.
    static func cgroupFiles(procSelfCgroup text: String, v2File: String?, v1: (controller: String, file: String)?) -> [String] {
        var files: [String] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let controllers = fields[1].split(separator: ",")
            let (base, file): (String, String)
            if fields[0] == "0" && fields[1].isEmpty, let v2File {
                (base, file) = ("/sys/fs/cgroup", v2File)
            } else if let v1, controllers.contains(Substring(v1.controller)) {
                (base, file) = ("/sys/fs/cgroup/" + fields[1], v1.file)
            } else {
                continue
            }
            var components = fields[2].split(separator: "/").filter { $0 != ".." && $0 != "." }
            while !components.isEmpty {
                files.append(base + "/" + components.joined(separator: "/") + "/" + file)
                components.removeLast()
            }
        }
        return files
    }
}
