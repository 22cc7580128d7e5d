import Testing
import VignetteSupport

@testable import Vignette

@Suite("MemoryBudget")
struct MemoryBudgetTests {
    @Test(
        "cgroup limit files parse to a limit or to none",
        arguments: [
            ("max\n", nil),
            ("max", nil),
            ("536870912\n", 536_870_912),
            ("  1073741824 \n", 1_073_741_824),
            ("9223372036854771712\n", nil),  // cgroup v1 "unlimited"
            ("9223372036854775807", nil),
            ("0\n", nil),
            ("-1\n", nil),
            ("", nil),
            ("lots\n", nil),
            ("12 34\n", nil),
        ] as [(String, Int?)])
    func parse(text: String, expected: Int?) {
        #expect(MemoryBudget.parseCgroupLimit(text) == expected)
    }

    @Test("the process's own cgroups give their limit files and their ancestors'")
    func ownCgroupFiles() {
        let text = """
            12:memory:/docker/abc
            11:cpu,cpuacct:/docker/abc
            0::/user.slice/session-3.scope

            """
        #expect(
            MemoryBudget.cgroupLimitFiles(procSelfCgroup: text) == [
                "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes",
                "/sys/fs/cgroup/memory/docker/memory.limit_in_bytes",
                "/sys/fs/cgroup/user.slice/session-3.scope/memory.max",
                "/sys/fs/cgroup/user.slice/memory.max",
            ])
        #expect(MemoryBudget.cgroupLimitFiles(procSelfCgroup: "0::/\n").isEmpty)
        #expect(MemoryBudget.cgroupLimitFiles(procSelfCgroup: "0::/../../etc\n") == ["/sys/fs/cgroup/etc/memory.max"])
        #expect(MemoryBudget.cgroupLimitFiles(procSelfCgroup: "garbage").isEmpty)
    }

    @Test("available memory is positive and at most physical memory")
    func available() {
        let available = MemoryBudget.availableToProcess()
        #expect(available > 0)
        #expect(available <= MemoryBudget.physicalMemory())
        #expect(MemoryBudget.physicalMemory() < Int.max)
    }

    @Test("the default image cache limit is a fifth of what is available, at most 1 GiB")
    func defaultLimit() {
        #expect(MemoryBudget.defaultImageCacheCostLimit(available: 1_000_000_000) == 200_000_000)
        #expect(MemoryBudget.defaultImageCacheCostLimit(available: 64 << 30) == 1 << 30)
        #expect(MemoryBudget.defaultImageCacheCostLimit(available: 0) == 0)
        let limit = MemoryBudget.defaultImageCacheCostLimit()
        #expect(limit > 0)
        #expect(limit <= 1 << 30)
        #expect(limit <= MemoryBudget.availableToProcess())
    }

    @Test("a small file is read whole; a missing one is nil")
    func readSmallFile() {
        #expect(SmallTextFile.read("/proc/self/cgroup")?.isEmpty == false)
        #expect(SmallTextFile.read("/nonexistent/vignette") == nil)
    }
}
