import Foundation
import Testing
import Vignette
@testable import VignetteSupport

/// `ProcessStatistics` (what `/metrics` exports as `process_*`) against `/proc/self/status` and
/// the descriptor folder, read around it: tests run in parallel, so threads and descriptors may
/// change a little between the reads.
@Suite("Process statistics from /proc")
struct ProcessStatisticsTests {
    /// A `Name:   value` field of `/proc/self/status`, as a number (kB for the memory fields).
    static func status(_ field: String) throws -> Int {
        let text = try #require(SmallTextFile.read("/proc/self/status"))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        let number = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        return try #require(Int(number))
    }

    static func openDescriptors() throws -> Int { try Folder.names(in: "/proc/self/fd").count - 1 }

    @Test("resident memory matches VmRSS, threads match Threads, descriptors match /proc/self/fd")
    func againstProcStatus() throws {
        let before = (rss: try Self.status("VmRSS") * 1024, threads: try Self.status("Threads"), fds: try Self.openDescriptors())
        let statistics = try #require(ProcessStatistics.current())
        let after = (rss: try Self.status("VmRSS") * 1024, threads: try Self.status("Threads"), fds: try Self.openDescriptors())
        let tolerance = 16 << 20
        #expect(statistics.residentBytes >= min(before.rss, after.rss) - tolerance)
        #expect(statistics.residentBytes <= max(before.rss, after.rss) + tolerance)
        #expect(statistics.virtualBytes >= statistics.residentBytes)
        #expect(abs(statistics.threads - before.threads) <= 4 || abs(statistics.threads - after.threads) <= 4)
        #expect(abs(statistics.openDescriptors - before.fds) <= 8 || abs(statistics.openDescriptors - after.fds) <= 8)
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #expect(statistics.maxDescriptors == Int(clamping: limit.rlim_cur))
        #expect(statistics.cpuSeconds > 0)
        // Started before now, and not before the machine booted.
        let now = Date().timeIntervalSince1970
        #expect(statistics.startTime <= now + 1 && statistics.startTime > now - 86_400 * 365)
    }

    @Test("a stat line's fields are counted from the last ')', whatever the command name holds")
    func statLine() {
        let line = "4242 (odd) name (x)) S 1 2 3 4 5 6 7 8 9 10 120 30 0 0 20 0 7 0 5555 1000000 250 18446744073709551615"
        let fields = ProcessStatistics.statFields(line)
        #expect(fields == ProcessStatistics.StatFields(userTicks: 120, systemTicks: 30, threads: 7, startTicks: 5555, virtualBytes: 1_000_000, rssPages: 250))
        #expect(ProcessStatistics.statFields("4242 (cut") == nil)
        #expect(ProcessStatistics.bootTime(procStat: "cpu 1 2 3\nbtime 1700000000\nprocesses 9\n") == 1_700_000_000)
    }
}
