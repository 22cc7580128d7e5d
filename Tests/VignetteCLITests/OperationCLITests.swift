import Foundation
import Testing
import VignetteCodecs

/// `vignette thumbnail --rotate/--flip/--flop/--sharpen/--background/--extend/--dpr`: the geometry
/// exact, the content within dHash distance 5 of a reference made by libvips' own `vips` tool
/// (`vips thumbnail`, then the same operations in the documented order), and bad values refused
/// with one line.
@Suite("vignette thumbnail operations", .vipsTool)
struct OperationCLITests {
    /// A run of `vignette thumbnail FIXTURE --size BOX --format png ARGUMENTS` into a folder of its own.
    struct Made {
        let folder: URL
        let image: Image
        let info: ImageInfo
        let result: CLIResult

        var hash: PerceptualHash { get throws { try image.perceptualHash() } }
    }

    func made(_ fixture: String, size: String = "200", _ arguments: [String] = []) async throws -> Made {
        let out = try CLI.temporaryDirectory()
        let result = try await CLI.run(
            ["thumbnail", CLI.fixtures.appendingPathComponent(fixture).path, "--size", size, "--format", "png", "--out", out.path] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let name = try #require(CLI.files(in: out).first, "no output for \(arguments)")
        let file = out.appendingPathComponent(name)
        return Made(folder: out, image: try VipsTool.image(file), info: try ImageDecoder().probe(fileAt: file.path), result: result)
    }

    /// `vips thumbnail FIXTURE` into a `width` × `height` box, then each step (`vips OPERATION in out
    /// ARGUMENTS…`) on the previous step's output.
    func reference(_ fixture: String, width: Int = 200, height: Int = 200, _ steps: [[String]] = []) async throws -> Image {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var current = folder.appendingPathComponent("step-0.png")
        try await VipsTool.run(["thumbnail", CLI.fixtures.appendingPathComponent(fixture).path, current.path, "\(width)", "--height", "\(height)"])
        for (index, step) in steps.enumerated() {
            let next = folder.appendingPathComponent("step-\(index + 1).png")
            try await VipsTool.run([step[0], current.path, next.path] + step.dropFirst())
            current = next
        }
        return try VipsTool.image(current)
    }

    func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * buffer.width + x) * buffer.bands
        return Array(buffer.bytes[start..<start + min(3, buffer.bands)])
    }

    @Test("--rotate by any angle: the canvas grows to the rotated box, the picture is vips rotate's on white")
    func rotateByAngle() async throws {
        let turned = try await made("baseline.jpg", ["--rotate", "45"])
        defer { try? FileManager.default.removeItem(at: turned.folder) }
        // 200×150 turned by 45°: (200 + 150) × cos 45° = 247.5, rounded as vips_rotate rounds it.
        #expect(turned.info.width == 247 && turned.info.height == 247)
        let expected = try await reference("baseline.jpg", [["rotate", "45", "--background", "255 255 255"]])
        #expect(expected.width == 247 && expected.height == 247)
        #expect(try turned.hash.distance(to: expected.perceptualHash()) <= 2)
    }

    @Test("--rotate turns clockwise: the sides swap for a quarter turn, and the picture is vips rot's", arguments: [90, 180, 270])
    func rotate(degrees: Int) async throws {
        let turned = try await made("baseline.jpg", ["--rotate", "\(degrees)"])
        defer { try? FileManager.default.removeItem(at: turned.folder) }
        let quarter = degrees != 180
        #expect(turned.info.width == (quarter ? 150 : 200) && turned.info.height == (quarter ? 200 : 150))
        let expected = try await reference("baseline.jpg", [["rot", "d\(degrees)"]])
        #expect(try turned.hash.distance(to: expected.perceptualHash()) <= 5)
        // The comparison tells turned from not turned.
        #expect(try turned.hash.distance(to: try await reference("baseline.jpg").perceptualHash()) > 5)
    }

    @Test("--flip mirrors top to bottom and --flop left to right, as vips flip vertical / horizontal", arguments: [
        ("--flip", "vertical"), ("--flop", "horizontal"),
    ])
    func mirror(flag: String, direction: String) async throws {
        let mirrored = try await made("baseline.jpg", [flag])
        defer { try? FileManager.default.removeItem(at: mirrored.folder) }
        #expect(mirrored.info.width == 200 && mirrored.info.height == 150)
        #expect(try mirrored.hash.distance(to: try await reference("baseline.jpg", [["flip", direction]]).perceptualHash()) <= 5)
        #expect(try mirrored.hash.distance(to: try await reference("baseline.jpg").perceptualHash()) > 5)
    }

    @Test("--sharpen keeps the size, changes pixels, and matches vips sharpen of the same thumbnail")
    func sharpen() async throws {
        let sharp = try await made("baseline.jpg", ["--sharpen", "1"])
        let soft = try await made("baseline.jpg")
        defer {
            try? FileManager.default.removeItem(at: sharp.folder)
            try? FileManager.default.removeItem(at: soft.folder)
        }
        #expect(sharp.info.width == 200 && sharp.info.height == 150)
        let sharpPixels = try sharp.image.pixels(), softPixels = try soft.image.pixels()
        #expect(sharpPixels != softPixels)
        #expect(try sharp.hash.distance(to: try await reference("baseline.jpg", [["sharpen", "--sigma", "1"]]).perceptualHash()) <= 5)
        // Pixel for pixel against vips sharpen of Vignette's own unsharpened thumbnail: the same filter.
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let softFile = try #require(CLI.files(in: soft.folder).first)
        let out = folder.appendingPathComponent("sharp.png")
        try await VipsTool.run(["sharpen", soft.folder.appendingPathComponent(softFile).path, out.path, "--sigma", "1"])
        let expected = try VipsTool.image(out).pixels()
        try #require(expected.bytes.count == sharpPixels.bytes.count)
        let difference = zip(expected.bytes, sharpPixels.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        let softDifference = zip(expected.bytes, softPixels.bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        #expect(Double(difference) / Double(expected.bytes.count) < 0.5, "mean difference \(Double(difference) / Double(expected.bytes.count))")
        #expect(difference * 4 < softDifference)
    }

    @Test("--background flattens alpha onto the colour (RRGGBB or R,G,B), as vips flatten does")
    func background() async throws {
        let flat = try await made("alpha.png", ["--background", "ff0000"])
        let commas = try await made("alpha.png", ["--background", "255,0,0"])
        let kept = try await made("alpha.png")
        defer { for run in [flat, commas, kept] { try? FileManager.default.removeItem(at: run.folder) } }
        #expect(flat.info.width == 200 && flat.info.height == 150 && !flat.info.hasAlpha)
        #expect(kept.info.hasAlpha)
        let pixels = try flat.image.pixels()
        #expect(try commas.image.pixels() == pixels)
        // alpha.png is transparent at its right edge: the background shows there.
        #expect(pixel(pixels, 199, 75) == [255, 0, 0])
        let expected = try await reference("alpha.png", [["flatten", "--background", "255 0 0"]])
        #expect(try flat.hash.distance(to: expected.perceptualHash()) <= 5)
        #expect(pixel(try expected.pixels(), 199, 75) == [255, 0, 0])
    }

    @Test("--extend pads to exactly the box, centred, filled with --background (black without it), as vips gravity does")
    func extend() async throws {
        let padded = try await made("baseline.jpg", ["--extend", "--background", "255,0,0"])
        let black = try await made("baseline.jpg", ["--extend"])
        defer { for run in [padded, black] { try? FileManager.default.removeItem(at: run.folder) } }
        #expect(padded.info.width == 200 && padded.info.height == 200)
        let pixels = try padded.image.pixels()
        // The 200×150 thumbnail sits at rows 25–174.
        #expect(pixel(pixels, 0, 0) == [255, 0, 0] && pixel(pixels, 100, 24) == [255, 0, 0] && pixel(pixels, 199, 199) == [255, 0, 0])
        #expect(pixel(pixels, 100, 25) != [255, 0, 0])
        #expect(pixel(try black.image.pixels(), 0, 0) == [0, 0, 0])
        let expected = try await reference("baseline.jpg", [["gravity", "centre", "200", "200", "--background", "255 0 0"]])
        #expect(try padded.hash.distance(to: expected.perceptualHash()) <= 5)
    }

    @Test("--dpr multiplies the box: --size 100 --dpr 2 is vips thumbnail's 200 box; a cover box and --extend follow it")
    func dpr() async throws {
        let double = try await made("baseline.jpg", size: "100", ["--dpr", "2"])
        let cover = try await made("baseline.jpg", size: "100x80", ["--dpr", "1.5", "--fit", "cover"])
        let extended = try await made("baseline.jpg", size: "100", ["--dpr", "2", "--extend"])
        defer { for run in [double, cover, extended] { try? FileManager.default.removeItem(at: run.folder) } }
        #expect(double.info.width == 200 && double.info.height == 150)
        #expect(cover.info.width == 150 && cover.info.height == 120)
        #expect(extended.info.width == 200 && extended.info.height == 200)
        #expect(try double.hash.distance(to: try await reference("baseline.jpg").perceptualHash()) <= 5)
    }

    @Test("a quarter turn in a box that is not square: the result still fits the box, and --extend fills it")
    func quarterTurnInWideBox() async throws {
        let turned = try await made("baseline.jpg", size: "300x200", ["--rotate", "90"])
        let padded = try await made("baseline.jpg", size: "300x200", ["--rotate", "90", "--extend"])
        defer { for run in [turned, padded] { try? FileManager.default.removeItem(at: run.folder) } }
        #expect(turned.info.width == 150 && turned.info.height == 200)
        #expect(padded.info.width == 300 && padded.info.height == 200)
        let expected = try await reference("baseline.jpg", width: 200, height: 300, [["rot", "d90"], ["gravity", "centre", "300", "200"]])
        #expect(try padded.hash.distance(to: expected.perceptualHash()) <= 5)
    }

    @Test("all at once, in the documented order: resize, rotate, flip, flop, sharpen, flatten, extend")
    func order() async throws {
        let all = try await made("alpha.png", [
            "--extend", "--background", "0,0,255", "--sharpen", "1", "--flop", "--flip", "--rotate", "90",
        ])
        defer { try? FileManager.default.removeItem(at: all.folder) }
        #expect(all.info.width == 200 && all.info.height == 200 && !all.info.hasAlpha)
        let expected = try await reference("alpha.png", [
            ["rot", "d90"], ["flip", "vertical"], ["flip", "horizontal"], ["sharpen", "--sigma", "1"],
            ["flatten", "--background", "0 0 255"], ["gravity", "centre", "200", "200", "--background", "0 0 255"],
        ])
        #expect(try all.hash.distance(to: expected.perceptualHash()) <= 5)
        // The turn and the mirrors do not commute: mirroring before the turn gives another picture.
        let otherOrder = try await reference("alpha.png", [
            ["flip", "vertical"], ["rot", "d90"], ["flip", "horizontal"],
            ["flatten", "--background", "0 0 255"], ["gravity", "centre", "200", "200", "--background", "0 0 255"],
        ])
        #expect(try all.hash.distance(to: otherOrder.perceptualHash()) > 5)
    }

    @Test("--cache keys name the operations: a turned request is not served the plain thumbnail, and is cached itself")
    func cacheKey() async throws {
        let out = try CLI.temporaryDirectory(), cache = try CLI.temporaryDirectory()
        defer { for folder in [out, cache] { try? FileManager.default.removeItem(at: folder) } }
        let input = CLI.fixtures.appendingPathComponent("baseline.jpg").path
        func run(_ arguments: [String]) async throws -> [String: Any] {
            let result = try await CLI.run(["thumbnail", input, "--size", "200", "--out", out.path, "--cache", cache.path, "--json"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return try #require((report["results"] as? [[String: Any]])?.first)
        }
        _ = try await run([])
        let turned = try await run(["--rotate", "90"])
        #expect(turned["width"] as? Int == 150 && turned["height"] as? Int == 200 && turned["cached"] as? Bool == false)
        let again = try await run(["--rotate", "90"])
        #expect(again["width"] as? Int == 150 && again["cached"] as? Bool == true)
    }

    @Test("--skip-existing names the output by the size the operations give before making it")
    func skipExisting() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = ["thumbnail", CLI.fixtures.appendingPathComponent("baseline.jpg").path, "--size", "200", "--out", out.path,
                         "--name", "{name}-{width}x{height}.{ext}", "--skip-existing", "--rotate", "270"]
        let first = try await CLI.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(CLI.files(in: out) == ["baseline-150x200.jpg"])
        let padded = try await CLI.run(arguments + ["--extend"])
        #expect(padded.status == 0)
        #expect(CLI.files(in: out) == ["baseline-150x200.jpg", "baseline-200x200.jpg"])
        let again = try await CLI.run(arguments + ["--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let entry = try #require((report["results"] as? [[String: Any]])?.first)
        #expect(entry["skipped"] as? Bool == true && entry["width"] as? Int == 150)
    }

    @Test("an animated GIF keeps its frames, each turned")
    func animated() async throws {
        let out = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let input = CLI.fixtures.appendingPathComponent("animated.gif").path
        let result = try await CLI.run(["thumbnail", input, "--size", "100", "--out", out.path, "--rotate", "90", "--sharpen", "0.5"])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: out.appendingPathComponent("animated.webp"))
        let info = try ImageDecoder().probe(data)
        #expect(info.width == 75 && info.height == 100 && info.pages == 4)
        let source = try ImageDecoder().decodeAnimation(try Data(contentsOf: URL(fileURLWithPath: input)))
        let frames = try ImageDecoder().decodeAnimation(data)
        #expect(frames.frameCount == 4 && frames.delays == source.delays)
    }

    @Test("bad values are one line naming the flag, exit 2, nothing written", arguments: [
        (["--rotate", "nan"], "--rotate"), (["--rotate", "ninety"], "--rotate"), (["--rotate", "inf"], "--rotate"), (["--background", "nope"], "--background"),
        (["--background", "300,0,0"], "--background"), (["--background", "ff00"], "--background"), (["--dpr", "0"], "--dpr"),
        (["--dpr", "nan"], "--dpr"), (["--dpr", "9"], "--dpr"), (["--sharpen", "101"], "--sharpen"), (["--sharpen=-1"], "--sharpen"),
        (["--size", "100000", "--dpr", "2"], "--dpr"), (["--size", "20000", "--extend"], "--extend"),
    ])
    func refused(arguments: [String], flag: String) async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-ops-refused-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let size = arguments.contains("--size") ? [] : ["--size", "100"]
        let result = try await CLI.run(["thumbnail", CLI.fixtures.appendingPathComponent("baseline.jpg").path, "--out", out.path] + size + arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix("vignette: \(flag)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("--help lists the operations in their order")
    func help() async throws {
        let result = try await CLI.run(["thumbnail", "--help"])
        #expect(result.status == 0)
        let text = try #require(result.stdout.range(of: "OPERATIONS").map { String(result.stdout[$0.lowerBound...]) }, "\(result.stdout)")
        let flags = ["--rotate <DEGREES>", "--flip", "--flop", "--sharpen <SIGMA>", "--background <COLOUR>", "--extend"]
        let positions = flags.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == flags.count && positions == positions.sorted(), "\(text)")
        #expect(text.contains("--dpr <X>"))
        #expect(result.stdout.contains("--rotate, --flip, --flop,"))
    }
}
