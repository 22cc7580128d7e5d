import ChildProcess
import Foundation
import Testing

/// The tests' own child processes: what the suite's hangs came from when Foundation's `Process`
/// let one test's child inherit another's pipes and exit socket.
@Suite("ChildProcess")
struct ChildProcessTests {
    @Test("a child gets only its standard descriptors, however many the test process has open")
    func noInheritedDescriptors() async throws {
        var leaky: [Int32] = [-1, -1]
        try #require(pipe(&leaky) == 0)  // not close-on-exec, as Foundation's pipes are not
        defer { for descriptor in leaky { close(descriptor) } }
        let child = try ChildProcess("/bin/sh", ["-c", "ls /proc/$$/fd"])
        let result = await child.result(killAfter: .seconds(60))
        #expect(result.termination == .exited(0), "\(result.standardError)")
        #expect(result.standardOutput.split(separator: "\n").sorted() == ["0", "1", "2"], "\(result.standardOutput)")
    }

    @Test("exit codes and signals are told apart; a child past its time is killed and says so")
    func terminations() async throws {
        let exited = await (try ChildProcess("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])).result()
        #expect(exited.termination == .exited(3) && !exited.wasKilled)
        #expect(exited.standardOutput == "out\n" && exited.standardError == "err\n")

        // Killed, not ended by itself: `sleep 60` left alone exits 0 after a minute. (No clock here:
        // under a sanitizer the test's own task may resume long after the kill.)
        let sleeper = try ChildProcess("/bin/sleep", ["60"])
        let killed = await sleeper.result(killAfter: .milliseconds(200))
        #expect(killed.termination == .signalled(SIGKILL) && killed.wasKilled)
    }

    @Test("a signal sent on a line of output lands while the child still runs")
    func signalOnOutput() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo ready; exec sleep 60"])
        child.send(SIGTERM) { $0.contains("ready\n") }
        let result = await child.result(killAfter: .seconds(30))
        #expect(result.termination == .signalled(SIGTERM) && !result.wasKilled)
    }
}
