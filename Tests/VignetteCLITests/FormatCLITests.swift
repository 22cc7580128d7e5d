import Foundation
import Testing
import VignetteCodecs

@Suite("vignette convert, thumbnail and info: JPEG XL, TIFF, BMP and ICO")
struct FormatCLITests {
    /// `file` as ImageMagick reads it (`vips magickload`, in a process of its own): BMP and ICO,
    /// which Vignette writes but does not read.
    static func readByImageMagick(_ file: String) async throws -> Image {
        let png = file + ".png"
        try await VipsTool.run(["magickload", file, png])
        return try VipsTool.image(URL(fileURLWithPath: png))
    }

    @Test("convert writes the format the extension names, upright", .vipsTool, arguments: ["jxl", "tif", "tiff", "bmp"])
    func convert(ext: String) async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let target = out.appendingPathComponent("converted.\(ext)").path
        let result = try await CLI.run(["convert", CLI.fixtures.appendingPathComponent("orientation-6.jpg").path, target])
        #expect(result.status == 0, "\(result.stderr)")
        let image = ext == "bmp" ? try await Self.readByImageMagick(target) : try ImageDecoder().decode(fileAt: target)
        #expect(image.width == 640 && image.height == 480)
        if ext != "bmp" { #expect(try ImageDecoder().probe(fileAt: target).format == (ext == "jxl" ? .jxl : .tiff)) }
        let upright = try ImageDecoder().decode(fileAt: CLI.fixtures.appendingPathComponent("orientation-1.jpg").path)
        #expect(try image.perceptualHash().distance(to: upright.perceptualHash()) <= 5)
    }

    @Test("convert --lossless JXL is pixel-exact; --lossless TIFF is a usage error")
    func lossless() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let source = CLI.fixtures.appendingPathComponent("rgb8.png").path
        let target = out.appendingPathComponent("exact.jxl").path
        let result = try await CLI.run(["convert", source, target, "--lossless"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try ImageDecoder().decode(fileAt: target).pixels() == ImageDecoder().decode(fileAt: source).pixels())
        #expect(try await CLI.run(["convert", source, out.appendingPathComponent("x.tif").path, "--lossless"]).status == 2)
    }

    @Test("an ICO over 256 a side is refused (exit 1, the reason, no file); thumbnail --format ico writes one ImageMagick reads", .vipsTool)
    func ico() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let big = try await CLI.run(["convert", CLI.fixtures.appendingPathComponent("baseline.jpg").path, out.appendingPathComponent("big.ico").path])
        #expect(big.status == 1)
        #expect(big.stderr.contains("256x256"), "\(big.stderr)")
        #expect(CLI.files(in: out).isEmpty)
        let made = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent("alpha.png").path, "--size", "64", "--format", "ico", "--out", out.path])
        #expect(made.status == 0, "\(made.stderr)")
        let icon = try await Self.readByImageMagick(out.appendingPathComponent("alpha.ico").path)
        #expect(icon.width == 64 && icon.height == 48 && icon.hasAlpha)
    }

    @Test("thumbnail --format jxl|tiff|bmp of a JXL input; info names jxl", .vipsTool)
    func thumbnail() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let input = CLI.fixtures.appendingPathComponent("rgb.jxl").path
        for format in ["jxl", "tiff", "bmp"] {
            let result = try await CLI.run(["thumbnail", input, "--size", "100", "--format", format, "--out", out.path])
            #expect(result.status == 0, "\(format): \(result.stderr)")
            let file = out.appendingPathComponent("rgb.\(format)").path
            let image = format == "bmp" ? try await Self.readByImageMagick(file) : try ImageDecoder().decode(fileAt: file)
            #expect(image.width == 100 && image.height == 75, "\(format)")
        }
        let info = try await CLI.run(["info", input])
        let line = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
        #expect(line["format"] as? String == "jxl" && line["width"] as? Int == 320)
        let bomb = try await CLI.run(["info", CLI.fixtures.appendingPathComponent("hostile-huge.jxl").path])
        #expect(bomb.status == 0, "\(bomb.stderr)")  // the header alone, as for every format
        let refused = try await CLI.run(["convert", CLI.fixtures.appendingPathComponent("hostile-huge.jxl").path, out.appendingPathComponent("x.png").path])
        #expect(refused.status == 1 && refused.stderr.contains("over the limit"), "\(refused.stderr)")
    }
}
