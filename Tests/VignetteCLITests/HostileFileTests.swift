import ChildProcess
import Foundation
import Testing
import VignetteCodecs

/// Inputs and outputs that are hostile by their kind or their name rather than their bytes:
/// FIFOs, devices, control characters in names, output folders that cannot be made, SIGTERM.
@Suite("vignette info|thumbnail|convert against hostile files")
struct HostileFileTests {
    /// Generous: each of these ends in well under a second when it works; a hang is killed here.
    static let limit = Duration.seconds(10)

    static func fixture(_ name: String) -> String { CLI.fixtures.appendingPathComponent(name).path }

    /// A named pipe in a fresh folder; nothing holds it open.
    func makeFIFO(in folder: URL, named name: String = "pipe.jpg") throws -> String {
        let path = folder.appendingPathComponent(name).path
        try #require(mkfifo(path, 0o644) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        return path
    }

    /// One command over `input` (a thumbnail into `out`, a conversion to `out/x.png`, or info).
    func commands(for input: String, out: URL) -> [[String]] {
        [
            ["info", input],
            ["thumbnail", input, "--size", "64", "--out", out.path],
            ["convert", input, out.appendingPathComponent("x.png").path],
        ]
    }

    @Test("a FIFO with no writer: info, thumbnail and convert refuse it at once, one line naming it")
    func fifoWithoutWriter() async throws {
        let folder = try CLI.temporaryDirectory(), out = try CLI.temporaryDirectory()
        defer { for d in [folder, out] { try? FileManager.default.removeItem(at: d) } }
        let fifo = try makeFIFO(in: folder)
        for arguments in commands(for: fifo, out: out) {
            let (result, elapsed, killed) = try await CLI.run(arguments, killAfter: Self.limit)
            // A command blocked in open(2) is killed after `limit` and fails here. The elapsed time
            // itself is not asserted: the suite's CPU-bound tests can hold the threads that see the
            // child end for seconds (seen: 17 s for a child that ended at once).
            #expect(!killed, "\(arguments[0]) blocked on the FIFO until killed after \(Self.limit) (\(elapsed))")
            #expect(result.status == 1, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.hasPrefix("vignette: \(fifo): "), "\(result.stderr)")
            #expect(result.stderr.contains("is a pipe (FIFO) with no writer or nothing in it, not a regular file"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(CLI.files(in: out).isEmpty)
    }

    @Test("a FIFO whose writer sends a JPEG is read to its end: info and convert see the image")
    func fifoWithWriter() async throws {
        let folder = try CLI.temporaryDirectory(), out = try CLI.temporaryDirectory()
        defer { for d in [folder, out] { try? FileManager.default.removeItem(at: d) } }
        let fifo = try makeFIFO(in: folder)
        for arguments in [["info", fifo], ["convert", fifo, out.appendingPathComponent("from-pipe.png").path]] {
            // The writer is a child of its own, blocked in open(2) until the reader comes; a
            // SIGPIPE or a kill ends it, never this test process.
            let writer = try CLI.start("/bin/sh", ["-c", "exec cat \"$0\" > \"$1\"", Self.fixture("baseline.jpg"), fifo])
            // Give the writer time to reach its open(2): a writer that is not there yet is "no writer".
            let deadline = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < deadline, !(try isBlockedOpening(writer)) { try await Task.sleep(for: .milliseconds(5)) }
            let (result, _, killed) = try await CLI.run(arguments, killAfter: Self.limit)
            writer.send(SIGTERM)
            _ = await writer.result(killAfter: .seconds(10))
            #expect(!killed)
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
            if arguments[0] == "info" {
                #expect(result.stdout.contains("\"format\":\"jpeg\",\"width\":640,\"height\":480"), "\(result.stdout)")
            } else {
                let info = try ImageDecoder().probe(fileAt: out.appendingPathComponent("from-pipe.png").path)
                #expect(info.format == .png && info.width == 640 && info.height == 480)
            }
        }
    }

    @Test("info reading a FIFO whose writer is connected but silent: SIGTERM ends it at once, even when started with SIGTERM blocked")
    func silentWriterAndSIGTERM() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = try makeFIFO(in: folder)
        let writer = try CLI.start("/bin/sh", ["-c", "exec sleep 60 > \"$0\"", fifo])
        defer { writer.send(SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline, !(try isBlockedOpening(writer)) { try await Task.sleep(for: .milliseconds(5)) }
        // Started with SIGTERM blocked (as a child of a Dispatch thread would be), the binary must
        // unblock it, or only the pipe's 30 s idle timeout (or SIGKILL) would end it.
        let process = try CLI.start(["info", fifo], blockedSignals: [SIGTERM])
        let writerPID = writer.processIdentifier
        CLI.send(SIGTERM, to: process, within: .seconds(5)) {
            // The writer's open(2) returned: the reader is there and waiting for bytes.
            let wchan = (try? String(contentsOfFile: "/proc/\(writerPID)/wchan", encoding: .utf8)) ?? ""
            return !wchan.contains("wait_for_partner")
        }
        // Asserted by the kill, not by a clock: under a loaded suite, noticing that the child
        // ended can itself take long.
        let (result, killed) = await CLI.finish(process, killAfter: Self.limit)
        #expect(!killed, "info was still reading the silent FIFO after SIGTERM, killed after \(Self.limit)")
        #expect(result.killedBySignal && result.status == SIGTERM, "status \(result.status): \(result.stderr)")
    }

    /// True once `process` sits in open(2) of a FIFO (its shell has made the redirection), read
    /// from /proc: its kernel wait channel names the FIFO wait.
    func isBlockedOpening(_ process: ChildProcess) throws -> Bool {
        let wchan = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/wchan", encoding: .utf8)) ?? ""
        return wchan.contains("wait_for_partner") || wchan.contains("fifo")
    }

    @Test("a pipe on standard input (/dev/stdin) is read as a stream, within the byte budget")
    func standardInputPipe() async throws {
        let pipe = Pipe()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("progressive.jpg")))
        // Smaller than a pipe's buffer: written whole before the reader starts, then the end.
        try #require(bytes.count < 65536)
        pipe.fileHandleForWriting.write(bytes)
        try pipe.fileHandleForWriting.close()
        let (result, _, killed) = try await CLI.run(["info", "/dev/stdin"], killAfter: Self.limit, input: .descriptor(pipe.fileHandleForReading.fileDescriptor))
        #expect(!killed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"width\":640"), "\(result.stdout)")

        // Past the 100 MiB budget: refused once the budget is passed, not read to the end. The
        // shell's pipeline keeps the writer's SIGPIPE away from this process.
        let binary = try #require(CLI.binary)
        let shell = try CLI.start("/bin/sh", ["-c", "head -c 200000000 /dev/zero 2>/dev/null | \"$0\" info /dev/stdin", binary.path])
        let over = await CLI.finish(shell)
        #expect(over.status == 1)
        #expect(over.stderrLines == ["vignette: /dev/stdin: input from the pipe is over the limit of \(100 << 20) bytes"], "\(over.stderr)")
    }

    @Test("character devices are refused with one line, never read", arguments: ["/dev/zero", "/dev/null", "/dev/urandom"])
    func characterDevices(device: String) async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        for arguments in commands(for: device, out: out) {
            let (result, _, killed) = try await CLI.run(arguments, killAfter: Self.limit)
            #expect(!killed, "\(arguments[0]) \(device) was killed after \(Self.limit)")
            #expect(result.status == 1)
            #expect(result.stderrLines == ["vignette: \(device): \(device) is a character device, not a regular file"], "\(result.stderr)")
        }
        #expect(CLI.files(in: out).isEmpty)
    }

    @Test("a socket is refused with one line")
    func socketFile() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("socket.jpg").path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
        let (result, _, killed) = try await CLI.run(["info", path], killAfter: Self.limit)
        #expect(!killed)
        #expect(result.stderrLines == ["vignette: \(path): \(path) is a socket, not a regular file"], "\(result.stderr)")
    }

    @Test("SIGTERM in the middle of a batch: as Ctrl-C, but exit 143; a report, every output whole")
    func sigterm() async throws {
        let inputs = try CLI.manyInputs(300, of: "thumbnail.heic"), out = try CLI.temporaryDirectory()
        defer { for d in [inputs, out] { try? FileManager.default.removeItem(at: d) } }
        let process = try CLI.start(["thumbnail", inputs.path, "--size", "1200", "--out", out.path, "--jobs", "2", "--json"])
        CLI.send(SIGTERM, to: process) { CLI.files(in: out).filter({ !$0.hasPrefix(".") }).count >= 5 }
        let result = await CLI.finish(process)
        #expect(!result.killedBySignal)
        #expect(result.status == 143)
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("vignette: interrupted by SIGTERM: "), "\(result.stderr)")
        let written = CLI.files(in: out)
        #expect(!written.contains { $0.hasPrefix(".") || $0.hasSuffix(".partial") })
        #expect(written.count < 300)
        for name in written {
            #expect(try ImageDecoder().probe(fileAt: out.appendingPathComponent(name).path).width == 1200)
        }
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let totals = try #require(report["totals"] as? [String: Any])
        #expect(totals["interrupted"] as? Bool == true)
        #expect((report["results"] as? [Any])?.count == written.count)
    }

    /// A broken file named with a newline, a tab and an escape sequence.
    static let hostileName = "bad\nname\t\u{1B}[31mred.jpg"
    static let hostileNameShown = "bad\\nname\\t\\x1b[31mred.jpg"

    @Test("a broken file whose name holds a newline and an escape: exactly one stderr line, the name escaped")
    func controlCharactersInNames() async throws {
        let folder = try CLI.temporaryDirectory(), out = try CLI.temporaryDirectory()
        defer { for d in [folder, out] { try? FileManager.default.removeItem(at: d) } }
        let broken = folder.appendingPathComponent(Self.hostileName).path
        try Data("not an image at all".utf8).write(to: URL(fileURLWithPath: broken))
        let shown = "vignette: \(folder.path)/\(Self.hostileNameShown): "
        for arguments in commands(for: broken, out: out) + [["thumbnail", folder.path, "--size", "64", "--out", out.path]] {
            let result = try await CLI.run(arguments)
            #expect(result.status == 1, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.hasPrefix(shown), "\(arguments[0]): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"), "no raw escape reaches the terminal")
        }
        // A missing file: the reason names the path too, still one line.
        let missing = folder.appendingPathComponent("gone\n\u{1B}.jpg").path
        let result = try await CLI.run(["info", missing])
        #expect(result.stderrLines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("vignette: \(folder.path)/gone\\n\\x1b.jpg: "), "\(result.stderr)")
        // Input expansion: a pattern that matches nothing.
        let pattern = folder.path + "/none\n*.png"
        let glob = try await CLI.run(["thumbnail", pattern, "--size", "64", "--out", out.path])
        #expect(glob.stderrLines == ["vignette: \(folder.path)/none\\n*.png: no file matches"], "\(glob.stderr)")
    }

    @Test("on a terminal, the progress bar's failure lines are escaped too", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func controlCharactersWithProgressBar() async throws {
        let folder = try CLI.temporaryDirectory(), out = try CLI.temporaryDirectory()
        defer { for d in [folder, out] { try? FileManager.default.removeItem(at: d) } }
        try Data("not an image".utf8).write(to: folder.appendingPathComponent(Self.hostileName))
        try FileManager.default.copyItem(atPath: Self.fixture("baseline.jpg"), toPath: folder.appendingPathComponent("good.jpg").path)
        let binary = try #require(CLI.binary)
        // script(1) gives the command a pseudo-terminal; the glob hands it the hostile name.
        let process = try CLI.start("/usr/bin/script", ["-qec", "\(binary.path) thumbnail \(folder.path)/*.jpg --size 20 --out \(out.path)", "/dev/null"])
        let result = await CLI.finish(process)
        #expect(result.status == 1)
        #expect(result.stdout.contains("vignette: \(folder.path)/\(Self.hostileNameShown): "), "\(result.stdout)")
        #expect(!result.stdout.contains("\u{1B}[31m"))
        #expect(result.stdout.contains("2/2 ["))
    }

    @Test("an output folder that cannot be made: one line with the folder and the system's reason, exit 2")
    func outputFolderCannotBeMade() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a-file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let cases: [(out: String, line: String)] = [
            (file + "/sub", "vignette: cannot create folder \(file)/sub: Not a directory"),
            (file + "/sub/deeper", "vignette: cannot create folder \(file)/sub/deeper: Not a directory"),
            (file, "vignette: cannot create folder \(file): it exists and is not a folder"),
            ("/proc/version/thumbs", "vignette: cannot create folder /proc/version/thumbs: Not a directory"),
            (file + "/new\nline", "vignette: cannot create folder \(file)/new\\nline: Not a directory"),
        ]
        for (out, line) in cases {
            let result = try await CLI.run(["thumbnail", Self.fixture("baseline.jpg"), "--size", "64", "--out", out])
            #expect(result.status == 2, "\(out): \(result.stderr)")
            #expect(result.stderrLines.count == 1, "\(out): \(result.stderr)")
            #expect(!result.stderr.contains("CocoaError") && !result.stderr.contains("userInfo"), "\(result.stderr)")
            #expect(result.stderrLines == [line])
        }
    }

    @Test("outputs that cannot be written: one line each with the path and the reason; the others are written")
    func outputsThatCannotBeWritten() async throws {
        let folder = try CLI.temporaryDirectory(), out = try CLI.temporaryDirectory()
        defer { for d in [folder, out] { try? FileManager.default.removeItem(at: d) } }
        let file = folder.appendingPathComponent("a-file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let input = Self.fixture("baseline.jpg")

        let underFile = try await CLI.run(["convert", input, file + "/x.png"])
        #expect(underFile.status == 1)
        #expect(underFile.stderrLines == ["vignette: \(input): cannot write \(file)/x.png: Not a directory"])

        let directory = folder.appendingPathComponent("taken.png").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let onDirectory = try await CLI.run(["convert", input, directory])
        #expect(onDirectory.status == 1)
        #expect(onDirectory.stderrLines == ["vignette: \(input): cannot write \(directory): Is a directory"])
        #expect(CLI.files(in: folder) == ["a-file", "taken.png"], "no temporary file left behind")

        // In a batch: a folder where one output goes fails that input only.
        try FileManager.default.createDirectory(at: out.appendingPathComponent("baseline.jpg"), withIntermediateDirectories: false)
        let batch = try await CLI.run(["thumbnail", input, Self.fixture("alpha.png"), "--size", "64", "--out", out.path])
        #expect(batch.status == 1)
        #expect(batch.stderrLines == ["vignette: \(input): cannot write \(out.path)/baseline.jpg: Is a directory"], "\(batch.stderr)")
        #expect(CLI.files(in: out) == ["alpha.png", "baseline.jpg"])
    }
}
