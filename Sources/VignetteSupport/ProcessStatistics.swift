#if canImport(Glibc)
import Glibc
#endif

/// What the kernel says of this process, read from `/proc` when asked (`current()`): the figures
/// Prometheus' client libraries export as `process_*`, in the one place they are read.
package struct ProcessStatistics: Sendable, Equatable {
    /// Resident memory in bytes (`/proc/self/stat` field 24, rss pages × page size).
    package var residentBytes: Int
    /// Virtual memory in bytes (`/proc/self/stat` field 23, vsize).
    package var virtualBytes: Int
    /// User and system CPU time in seconds (fields 14 and 15, clock ticks over `_SC_CLK_TCK`).
    package var cpuSeconds: Double
    /// Threads (field 20, num_threads).
    package var threads: Int
    /// Start time in seconds since the Unix epoch: `/proc/stat`'s boot time (btime) plus field
    /// 22 (starttime, in clock ticks since boot).
    package var startTime: Double
    /// Open file descriptors: the entries of `/proc/self/fd`, the listing's own one left out.
    package var openDescriptors: Int
    /// The soft limit on open file descriptors (`getrlimit(RLIMIT_NOFILE)`); `Int.max` when unlimited.
    package var maxDescriptors: Int

    /// The figures now, or nil when `/proc` cannot be read (not Linux, or not mounted).
    package static func current() -> ProcessStatistics? {
        guard let stat = SmallTextFile.read("/proc/self/stat").flatMap(statFields),
              // btime follows a line per CPU and the interrupt counts, which pass 64 KiB on large hosts.
              let bootTime = SmallTextFile.read("/proc/stat", maxBytes: 4 << 20).flatMap(bootTime(procStat:)),
              let descriptors = try? Folder.names(in: "/proc/self/fd")
        else { return nil }
        let ticks = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))
        let pageSize = max(1, sysconf(Int32(_SC_PAGESIZE)))
        var limit = rlimit()
        // RLIM_INFINITY is all ones, past Int.max: `clamping` makes it Int.max.
        let maxDescriptors = (try? systemCall("getrlimit") { getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) }) == nil
            ? Int.max : Int(clamping: limit.rlim_cur)
        return ProcessStatistics(
            residentBytes: stat.rssPages * pageSize, virtualBytes: stat.virtualBytes,
            cpuSeconds: Double(stat.userTicks + stat.systemTicks) / ticks, threads: stat.threads,
            startTime: Double(bootTime) + Double(stat.startTicks) / ticks,
            openDescriptors: max(0, descriptors.count - 1), maxDescriptors: maxDescriptors)
    }

    /// The numbers of `/proc/self/stat` this type uses.
    struct StatFields: Equatable {
        var userTicks: Int
        var systemTicks: Int
        var threads: Int
        var startTicks: Int
        var virtualBytes: Int
        var rssPages: Int
    }

    /// The fields of a `/proc/PID/stat` line; the command name, in parentheses, may hold spaces
    /// and parentheses of its own, so the fields are counted from the last ')'.
    static func statFields(_ line: String) -> StatFields? {
        guard let close = line.lastIndex(of: ")") else { return nil }
        // Field 3 (state) is the first after the name: field n is at n - 3.
        let fields = line[line.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        func field(_ number: Int) -> Int? {
            let index = number - 3
            return fields.indices.contains(index) ? Int(fields[index].trimmingWhitespace()) : nil
        }
        guard let user = field(14), let system = field(15), let threads = field(20), let start = field(22),
              let virtual = field(23), let rss = field(24)
        else { return nil }
        return StatFields(userTicks: user, systemTicks: system, threads: threads, startTicks: start, virtualBytes: virtual, rssPages: rss)
    }

    /// The boot time (`btime` line, seconds since the epoch) of `/proc/stat`.
    static func bootTime(procStat text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Int(line.dropFirst("btime ".count).trimmingWhitespace())
        }
        return nil
    }
}
