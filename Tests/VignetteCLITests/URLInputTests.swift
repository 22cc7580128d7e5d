import Foundation
import LoopbackHTTPServer
import Testing
import Vignette
import VignetteCodecs

/// `vignette` with http(s) inputs, against a server on 127.0.0.1 that the test starts.
@Suite("vignette with URLs")
struct URLInputTests {
    func withServer(_ body: (LoopbackHTTPServer) async throws -> Void) async throws {
        let server = try await LoopbackHTTPServer.start()
        do { try await body(server) } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: CLI.fixtures.appendingPathComponent(name)))
    }

    @Test("thumbnail URL URL: the same URL given twice is fetched once")
    func sameURLTwice() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try await withServer { server in
            server.setRoute("/photos/cat.jpg", Route(body: try fixture("baseline.jpg"), contentType: "image/jpeg"))
            let url = server.url("/photos/cat.jpg")
            let result = try await CLI.run(["thumbnail", url, url, "--size", "100", "--out", out.path, "--jobs", "2"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(server.requests(for: "/photos/cat.jpg").count == 1)
            #expect(server.requests(for: "/photos/cat.jpg").first?.method == "GET")
            let info = try ImageDecoder().probe(fileAt: out.appendingPathComponent("cat.jpg").path)
            #expect(max(info.width, info.height) == 100)
        }
    }

    @Test("--cache with URLs: the downloads and the thumbnails are kept in the one pipeline's cache; a second run is all hits with no download, and a changed image is made again")
    func cacheKeepsDownloadsAndThumbnails() async throws {
        let out = try CLI.temporaryDirectory(), cache = try CLI.temporaryDirectory()
        defer { for folder in [out, cache] { try? FileManager.default.removeItem(at: folder) } }
        func entries(_ folder: URL) -> Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.count == 64 })
        }
        try await withServer { server in
            let route = { (fixture: String) in
                Route(body: try self.fixture(fixture), contentType: "image/jpeg", headers: [("Cache-Control", "max-age=3600")])
            }
            server.setRoute("/a.jpg", try route("baseline.jpg"))
            server.setRoute("/b.jpg", try route("orientation-6.jpg"))
            let urls = [server.url("/a.jpg"), server.url("/b.jpg")]
            let arguments = ["thumbnail"] + urls + ["--size", "64", "--out", out.path, "--cache", cache.path, "--json"]
            let first = try await CLI.run(arguments)
            #expect(first.status == 0, "\(first.stderr)")
            // Two thumbnails and two downloads, side by side: one pipeline, one cache.
            let originals = Set(urls.map { DataCache.digest(of: Array($0.utf8)) })
            #expect(entries(cache).count == 4 && originals.isSubset(of: entries(cache)), "\(entries(cache))")
            #expect(!FileManager.default.fileExists(atPath: cache.appendingPathComponent("originals").path))
            let second = try await CLI.run(arguments)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.stdout.components(separatedBy: "\"cached\":true").count - 1 == 2, "\(second.stdout)")
            #expect(server.requests(for: "/a.jpg").count == 1 && server.requests(for: "/b.jpg").count == 1)
            // Another image behind the same URL (once the download kept has gone): a new thumbnail,
            // though the old one is still in the cache.
            server.setRoute("/a.jpg", Route(body: try fixture("alpha.png"), contentType: "image/png", headers: [("Cache-Control", "no-store")]))
            try FileManager.default.removeItem(at: cache.appendingPathComponent(DataCache.digest(of: Array(urls[0].utf8))))
            let third = try await CLI.run(arguments)
            #expect(third.status == 0, "\(third.stderr)")
            let info = try ImageDecoder().probe(fileAt: out.appendingPathComponent("a.png").path)
            #expect(info.hasAlpha && max(info.width, info.height) == 64)
            #expect(third.stdout.contains("\"cached\":false"), "\(third.stdout)")
        }
    }

    @Test("a URL that 404s: exit 1, one line naming it, the other inputs still written")
    func notFound() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try await withServer { server in
            server.setRoute("/ok.webp", Route(body: try fixture("lossy.webp")))
            let missing = server.url("/missing.jpg")
            let result = try await CLI.run([
                "thumbnail", missing, server.url("/ok.webp"), CLI.fixtures.appendingPathComponent("baseline.jpg").path,
                "--size", "64", "--out", out.path, "--json",
            ])
            #expect(result.status == 1)
            #expect(result.stderrLines == ["vignette: \(missing): HTTP 404 Not Found"], "\(result.stderr)")
            #expect(Set(CLI.files(in: out)) == ["ok.jpg", "baseline.jpg"])
            #expect(result.stdout.contains("\"failed\":1"), "\(result.stdout)")
        }
    }

    @Test("Ctrl-C during a stalled download stops it: exit 130 before the read timeout, the URL reported, nothing written")
    func interruptStopsDownloads() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try await withServer { server in
            server.setRoute("/slow.jpg", Route(body: try fixture("baseline.jpg"), delivery: .stall))
            let url = server.url("/slow.jpg")
            let process = try CLI.start(["thumbnail", url, "--size", "64", "--out", out.path, "--json"])
            CLI.send(SIGINT, to: process, within: .seconds(20)) { !server.requests(for: "/slow.jpg").isEmpty }
            let result = await CLI.finish(process)
            #expect(result.status == 130)
            // Interrupted, not timed out (the loader's read timeout, 30 s, would say "timed out"):
            // no clock here, as this test's task may wait for a busy pool thread for seconds.
            #expect(result.stderrLines.contains("vignette: \(url): interrupted before the download finished"), "\(result.stderr)")
            #expect(CLI.files(in: out).isEmpty)
        }
    }

    @Test("URLs are fetched ahead of the jobs: with --jobs 1, four stalled downloads are all under way at once")
    func downloadsOverlap() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try await withServer { server in
            let urls = (0..<4).map { index in
                server.setRoute("/stalled-\(index).jpg", Route(body: [1, 2, 3], delivery: .stall))
                return server.url("/stalled-\(index).jpg")
            }
            let process = try CLI.start(["thumbnail"] + urls + ["--size", "64", "--out", out.path, "--jobs", "1"])
            CLI.send(SIGINT, to: process, within: .seconds(20)) { server.allRequests.count >= 4 }
            let result = await CLI.finish(process)
            #expect(result.status == 130)
            #expect(Set(server.allRequests.map(\.path)) == Set((0..<4).map { "/stalled-\($0).jpg" }))
            #expect(server.allRequests.count == 4)
        }
    }

    @Test("info URL prints the header of the downloaded image")
    func info() async throws {
        try await withServer { server in
            server.setRoute("/p.jpg", Route(body: try fixture("progressive.jpg")))
            let result = try await CLI.run(["info", server.url("/p.jpg"), server.url("/nothing")])
            #expect(result.status == 1)
            #expect(result.stdoutLines.count == 1)
            #expect(result.stdout.contains("\"file\":\"\(server.url("/p.jpg"))\""), "\(result.stdout)")
            #expect(result.stdout.contains("\"width\":640"))
            #expect(result.stderrLines == ["vignette: \(server.url("/nothing")): HTTP 404 Not Found"])
        }
    }
}
