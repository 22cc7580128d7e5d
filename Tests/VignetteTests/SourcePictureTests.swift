import ChildProcess
import Foundation
import Testing
@testable import Vignette

/// The page of a PDF and the second of a video reach the decode when the recipe crops before the
/// resize (the source decoded whole, `ImageRequest.picture`), as they do on the thumbnail route.
@Suite("Source picture: a PDF's page and a video's second through a crop")
struct SourcePictureTests {
    static func tool(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ executable: String, _ arguments: [String]) async throws {
        let process = try ChildProcess(executable, arguments, environment: ["PATH": "/usr/bin:/bin"], killAfter: .seconds(120))
        let result = await process.result()
        try #require(result.termination == .exited(0), Comment(rawValue: "\(executable): \(result.standardError.suffix(2000))"))
    }

    /// The recipe's image of the file at `path`, through a pipeline.
    static func image(_ path: String, _ change: (inout ImageRecipe) -> Void) async throws -> Image {
        var recipe = ImageRecipe(width: 100, height: 100, resizingType: .fit)
        change(&recipe)
        return try await ImagePipeline.testing(loader: CountingLoader()).image(for: recipe.request(for: .file(path)))
    }

    @Test("page 1 of a PDF (portrait, after a landscape page 0) with a crop is page 1", .enabled(if: tool("rsvg-convert") != nil))
    func pdfPageThroughACrop() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ns = #"xmlns="http://www.w3.org/2000/svg""#
        let pages = [
            #"<svg \#(ns) width="400" height="300"><rect width="400" height="300" fill="seagreen"/></svg>"#,
            #"<svg \#(ns) width="200" height="280"><rect width="200" height="280" fill="navy"/><rect width="200" height="140" fill="gold"/></svg>"#,
        ]
        var inputs: [String] = []
        for (index, page) in pages.enumerated() {
            let path = folder + "/page\(index).svg"
            try Data(page.utf8).write(to: URL(fileURLWithPath: path))
            inputs.append(path)
        }
        let pdf = folder + "/doc.pdf"
        try await Self.run(try #require(Self.tool("rsvg-convert")), ["-f", "pdf", "-o", pdf] + inputs)
        let plain = try await Self.image(pdf) { $0.page = 1 }
        let cropped = try await Self.image(pdf) {
            $0.page = 1
            $0.crop = ImageRecipe.Crop(width: 0, height: 0)
        }
        #expect(plain.width == 71 && plain.height == 100, "\(plain.width)x\(plain.height)")
        #expect(cropped.width == plain.width && cropped.height == plain.height, "\(cropped.width)x\(cropped.height)")
        #expect(try cropped.perceptualHash().distance(to: plain.perceptualHash()) <= 2)
    }

    @Test("the frame at 1.5 s of a clip red for 1 s then blue, with a crop, is blue; at 0 s red", .enabled(if: tool("ffmpeg") != nil))
    func videoSecondThroughACrop() async throws {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clip = folder + "/red-blue.mp4"
        try await Self.run(try #require(Self.tool("ffmpeg")), [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=red:s=64x48:r=25:d=1", "-f", "lavfi", "-i", "color=c=blue:s=64x48:r=25:d=1",
            "-filter_complex", "[0][1]concat=n=2:v=1", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip,
        ])
        for (second, blue) in [(1.5, true), (0, false)] {
            let image = try await Self.image(clip) {
                $0.videoSecond = second
                $0.crop = ImageRecipe.Crop(width: 32, height: 24)
            }
            #expect(image.width == 32 && image.height == 24, "\(image.width)x\(image.height)")
            let pixels = try image.pixels()
            let middle = (pixels.height / 2 * pixels.width + pixels.width / 2) * pixels.bands
            let (red, blueValue) = (pixels.bytes[middle], pixels.bytes[middle + 2])
            #expect(blue ? blueValue > 200 && red < 60 : red > 200 && blueValue < 60, "at \(second) s: red \(red), blue \(blueValue)")
        }
    }
}
