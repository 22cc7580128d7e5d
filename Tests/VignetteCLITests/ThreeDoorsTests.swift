import AsyncHTTPClient
import ChildProcess
import Foundation
import Testing
import Vignette
import VignetteImgproxy

/// One recipe, three front doors: the same imgproxy options string gives byte-identical results
/// through the library (`ImgproxyOptions` → `ImageRecipe` → `ImagePipeline`), `vignette thumbnail
/// --options` and `vignette serve`.
@Suite("One recipe, three front doors")
struct ThreeDoorsTests {
    /// Option strings and the fixture each is applied to.
    static let cases: [(options: String, fixture: String)] = [
        ("rs:fit:100:100", "baseline.jpg"), ("rs:fill:120:80", "baseline.jpg"), ("rs:fill-down:900:900", "baseline.jpg"),
        ("rs:force:90:60", "baseline.jpg"), ("rs:auto:60:120", "baseline.jpg"), ("w:150", "baseline.jpg"), ("h:70", "baseline.jpg"),
        ("rs:fit:100:100/dpr:2", "baseline.jpg"), ("rs:fit:0:200/ex:1", "baseline.jpg"), ("rs:fit:200:200/ex:1:so/bg:ff0000", "baseline.jpg"),
        ("rs:fit:100:100/exar:1", "baseline.jpg"), ("rs:fit:100:100/z:0.5", "baseline.jpg"), ("rs:fit:50:50/mw:120", "baseline.jpg"),
        ("rs:fill:100:100/g:nowe:10:5", "baseline.jpg"), ("rs:fill:100:100/g:fp:0.8:0.2", "baseline.jpg"),
        ("rs:fill:100:100/g:sm", "baseline.jpg"), ("rs:fit:120:120/rot:90", "baseline.jpg"), ("rs:fit:120:120/fl:1:1", "baseline.jpg"),
        ("rs:fit:100:100/bl:2", "baseline.jpg"), ("rs:fit:100:100/sh:1", "baseline.jpg"), ("rs:fit:100:100/pix:8", "baseline.jpg"),
        ("rs:fit:100:100/pd:10:20", "baseline.jpg"), ("rs:fit:100:100/c:300:200:ce", "baseline.jpg"), ("rs:fit:100:100/t:10", "baseline.jpg"),
        ("rs:fit:100:100/q:40", "baseline.jpg"), ("rs:fit:100:100/f:webp", "baseline.jpg"), ("rs:fit:100:100/f:png", "baseline.jpg"),
        ("rs:fit:100:100/f:avif/q:40", "baseline.jpg"), ("rs:fit:100:100/fq:jpg:30", "baseline.jpg"), ("rs:fit:200:200/mb:3000", "baseline.jpg"),
        ("rs:fit:64:64", "alpha.png"), ("rs:fit:64:64/bg:00ff00", "alpha.png"), ("rs:fit:80:80", "orientation-6.jpg"),
        ("rs:fit:80:80/ar:0", "orientation-6.jpg"), ("rs:fit:64:64/scp:0", "adobergb.jpg"), ("rs:fit:100:100/f:jxl", "baseline.jpg"),
    ]

    @Test("the library, vignette thumbnail --options and vignette serve give the same bytes for each options string")
    func sameBytes() async throws {
        let server = try CLI.start(["serve", "--bind", "127.0.0.1:0", "--root", CLI.fixtures.path])
        defer { server.send(SIGKILL) }
        let listening = try #require(await server.line(inStandardErrorStartingWith: "vignette: listening on http://127.0.0.1:"))
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await compare(port: port, client: client)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    func compare(port: Int, client: HTTPClient) async throws {
        let pipeline = ImagePipeline(configuration: ImagePipeline.Configuration(dataLoader: FileDataLoader(limits: .untrusted), imageCache: nil))
        for (options, fixture) in Self.cases {
            let path = CLI.fixtures.appendingPathComponent(fixture).path
            // The library.
            let recipe = try ImgproxyOptions().recipe(options)
            let library = try await pipeline.encodedImage(for: recipe.request(for: .file(path)), as: recipe.encoding()).image.data
            // The command line.
            let folder = try CLI.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await CLI.run(["thumbnail", path, "--options", options, "--out", folder.path])
            #expect(run.status == 0, "\(options): \(run.stderr)")
            let written = try #require(CLI.files(in: folder).first, "\(options): nothing written")
            let command = try Data(contentsOf: folder.appendingPathComponent(written))
            // The server.
            let response = try await client.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/insecure/\(options)/plain/local:///\(fixture)"), timeout: .seconds(60))
            let served = Data(try await response.body.collect(upTo: 1 << 26).readableBytesView)
            #expect(response.status.code == 200, "\(options): \(String(decoding: served, as: UTF8.self))")
            #expect(library == command, "\(options) on \(fixture): library \(library.count) bytes, command \(command.count)")
            #expect(library == served, "\(options) on \(fixture): library \(library.count) bytes, server \(served.count)")
        }
    }
}
