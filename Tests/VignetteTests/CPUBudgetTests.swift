import Foundation
import Testing
@testable import Vignette

@Suite("CPU budget: the cgroup quota, not the host's cores")
struct CPUBudgetTests {
    @Test("cpu.max and cfs quota/period give whole cores, rounded up; unlimited gives none",
          arguments: [("max 100000", nil), ("200000 100000", 2), ("150000 100000", 2), ("50000 100000", 1),
                      ("-1 100000", nil), ("garbage", nil), ("100000\n 100000\n", 1), ("0 100000", nil)] as [(String, Int?)])
    func parse(text: String, cores: Int?) {
        #expect(CPUBudget.parseCPUMax(text) == cores)
    }

    @Test("the process's own cgroups give their cpu files, v2 and v1")
    func files() {
        #expect(MemoryBudget.cgroupFiles(procSelfCgroup: "0::/system.slice/app.service\n", v2File: "cpu.max", v1: nil) == [
            "/sys/fs/cgroup/system.slice/app.service/cpu.max", "/sys/fs/cgroup/system.slice/cpu.max",
        ])
        #expect(MemoryBudget.cgroupFiles(procSelfCgroup: "4:cpu,cpuacct:/docker/abc\n", v2File: nil, v1: ("cpu", "cpu.cfs_quota_us")) == [
            "/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu,cpuacct/docker/cpu.cfs_quota_us",
        ])
    }

    @Test("the cores available are at least 1, at most the online CPUs, and size the pipeline's stages")
    func available() {
        let cores = CPUBudget.availableCores()
        #expect(cores >= 1 && cores <= ProcessInfo.processInfo.activeProcessorCount)
        #expect(ImagePipeline.Configuration().decodingConcurrency == cores)
    }

    @Test("cores shared between lanes: cores / lanes libvips threads an image, at least 1; one lane keeps them all")
    func sharing() {
        let before = ImagingRuntime.threadsPerImage
        defer { ImagingRuntime.threadsPerImage = before }
        ImagingRuntime.shareCores(8, among: 2)
        #expect(ImagingRuntime.threadsPerImage == 4)
        ImagingRuntime.shareCores(2, among: 2)
        #expect(ImagingRuntime.threadsPerImage == 1)
        ImagingRuntime.shareCores(2, among: 16)
        #expect(ImagingRuntime.threadsPerImage == 1)
        ImagingRuntime.threadsPerImage = 3
        ImagingRuntime.shareCores(8, among: 1)
        #expect(ImagingRuntime.threadsPerImage == 3)
    }
}
