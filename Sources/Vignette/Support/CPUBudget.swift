#if canImport(Glibc)
import Glibc
#endif
import VignetteSupport

/// How many CPUs this process may really use: what sizes the pipeline's stages by default.
///
/// On a server the host's core count is the wrong measure: a container limited to 2 CPUs on a
/// 64-core host would start 64 decoding threads, each running libvips threads of its own. So the
/// smallest of the online CPUs and every cgroup CPU quota that applies (v2 `cpu.max`, v1 `cpu.cfs_quota_us` over `cpu.cfs_period_us`,
/// rounded up to whole cores) wins, as `MemoryBudget` does for memory.
package enum CPUBudget {
    /// The cores this process may use, at least 1.
    package static func availableCores() -> Int {
        var cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        for quota in quotas() { cores = min(cores, quota) }
        return max(1, cores)
    }

    /// Every CPU quota that applies, in whole cores.
    static func quotas() -> [Int] {
        let own = SmallTextFile.read("/proc/self/cgroup") ?? ""
        var quotas: [Int] = []
        let v2 = ["/sys/fs/cgroup/cpu.max"] + MemoryBudget.cgroupFiles(procSelfCgroup: own, v2File: "cpu.max", v1: nil)
        for file in v2 {
            if let cores = SmallTextFile.read(file).flatMap(parseCPUMax) { quotas.append(cores) }
        }
        let v1 = ["/sys/fs/cgroup/cpu/cpu.cfs_quota_us"]
            + MemoryBudget.cgroupFiles(procSelfCgroup: own, v2File: nil, v1: ("cpu", "cpu.cfs_quota_us"))
        for file in v1 {
            let periodFile = String(file.dropLast("cpu.cfs_quota_us".count)) + "cpu.cfs_period_us"
            if let quota = SmallTextFile.read(file), let period = SmallTextFile.read(periodFile),
                let cores = parseCPUMax(quota + " " + period)
            {
                quotas.append(cores)
            }
        }
        return quotas
    }

    /// Whole cores from a quota and a period ("150000 100000" → 2); nil for "max", for a negative
    /// quota (v1's unlimited -1) and for anything that is not two positive numbers.
    static func parseCPUMax(_ text: String) -> Int? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 else { return nil }
        return max(1, (quota + period - 1) / period)
    }
}
