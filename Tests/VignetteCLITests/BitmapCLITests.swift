import Foundation
import Testing
import VignetteCodecs

@Suite("vignette info and thumbnail: BMP, ICO and SVGZ inputs")
struct BitmapCLITests {
    static let suite = CLI.fixtures.appendingPathComponent("bmpsuite")
    static let icons = CLI.fixtures.appendingPathComponent("icons")

    @Test("info names bmp and ico (an icon's largest entry); thumbnail reads the entry the box needs; a lying BMP is one line naming it, no file")
    func bitmaps() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let bmp = Self.suite.appendingPathComponent("g/pal8rle.bmp").path, ico = Self.icons.appendingPathComponent("favicon-im.ico").path
        let info = try await CLI.run(["info", bmp, ico])
        #expect(info.status == 0, "\(info.stderr)")
        let lines = try info.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(lines.count == 2)
        #expect(lines.first?["format"] as? String == "bmp" && lines.first?["width"] as? Int == 127 && lines.first?["height"] as? Int == 64)
        #expect(lines.last?["format"] as? String == "ico" && lines.last?["width"] as? Int == 256)

        let made = try await CLI.run(["thumbnail", bmp, ico, "--size", "32", "--format", "png", "--out", out.path, "--json"])
        #expect(made.status == 0, "\(made.stderr)")
        let icon = try ImageDecoder().decode(fileAt: out.appendingPathComponent("favicon-im.png").path)
        #expect(icon.width == 32 && icon.height == 32 && icon.hasAlpha)
        #expect(try ImageDecoder().decode(fileAt: out.appendingPathComponent("pal8rle.png").path).width == 32)

        let bad = Self.suite.appendingPathComponent("b/badrle.bmp").path
        let refused = try await CLI.run(["thumbnail", bad, "--size", "32", "--out", out.path])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(bad) && refused.stderr.contains("RLE"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("badrle.jpg").path))
    }

    @Test("An .svgz input is read as SVG by info and thumbnail")
    func svgz() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="teal"/></svg>"#
        let plain = out.appendingPathComponent("shape.svg")
        try Data(svg.utf8).write(to: plain)
        let gzip = try #require(["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }, "gzip is not installed")
        let zipped = await CLI.finish(try CLI.start(gzip, ["-k", "-S", "z", plain.path]))
        #expect(zipped.status == 0, "\(zipped.stderr)")
        let compressed = out.appendingPathComponent("shape.svgz").path
        let info = try await CLI.run(["info", compressed])
        let line = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        #expect(line["format"] as? String == "svg" && line["width"] as? Int == 40, "\(info.stdout) \(info.stderr)")
        let made = try await CLI.run(["thumbnail", compressed, "--size", "80", "--format", "png", "--out", out.path])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try ImageDecoder().decode(fileAt: out.appendingPathComponent("shape.png").path).width == 80)
    }
}
