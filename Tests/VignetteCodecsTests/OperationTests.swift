import ChildProcess
import Foundation
import Testing
@testable import VignetteCodecs

/// Rotate, flip, extend and sharpen: geometry exact, pixels where they should be, and the same
/// look as libvips' own command-line tool where it is installed.
@Suite("Operations: rotate, flip, extend, sharpen")
struct OperationTests {
    func baseline() throws -> Image { try ImageDecoder().decode(try TestFiles.data(TestFiles.fixture("baseline.jpg"))).resized(scale: 0.25) }

    /// The pixel at (x, y) of an RGB buffer.
    func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * buffer.width + x) * buffer.bands
        return Array(buffer.bytes[start..<start + 3])
    }

    @Test("quarter turns move each corner where it belongs; four turns are the identity; other angles throw")
    func rotation() throws {
        let image = try baseline().materialized()
        let source = try image.pixels()
        let turned = try image.rotated(degrees: 90).pixels()
        #expect(turned.width == source.height && turned.height == source.width)
        // Clockwise: the source's bottom-left corner becomes the top-left.
        #expect(pixel(turned, 0, 0) == pixel(source, 0, source.height - 1))
        let half = try image.rotated(degrees: 180).pixels()
        #expect(pixel(half, 0, 0) == pixel(source, source.width - 1, source.height - 1))
        #expect(try image.rotated(degrees: 360).pixels() == source)
        #expect(try image.rotated(degrees: -90).pixels() == (try image.rotated(degrees: 270).pixels()))
        #expect(throws: ImagingError.self) { try image.rotated(degrees: 45) }
    }

    @Test("a flop mirrors left to right, a flip top to bottom")
    func flips() throws {
        let image = try baseline().materialized()
        let source = try image.pixels()
        let flop = try image.flipped(horizontally: true).pixels()
        #expect(pixel(flop, 0, 0) == pixel(source, source.width - 1, 0))
        let flip = try image.flipped(horizontally: false).pixels()
        #expect(pixel(flip, 0, 0) == pixel(source, 0, source.height - 1))
    }

    @Test("extend: the canvas size, the image at its gravity (attention as the centre), the padding in the colour")
    func extend() throws {
        let image = try baseline().materialized()  // 160×120
        let source = try image.pixels()
        let south = try image.extended(toWidth: 200, height: 200, gravity: .south, background: (0, 0, 255)).pixels()
        #expect(south.width == 200 && south.height == 200)
        #expect(pixel(south, 0, 0) == [0, 0, 255] && pixel(south, 199, 79) == [0, 0, 255])
        #expect(pixel(south, 20, 80) == pixel(source, 0, 0))
        let alpha = try ImageDecoder().decode(try TestFiles.data(TestFiles.fixture("alpha.png")))
        let padded = try alpha.extended(toWidth: alpha.width + 10, height: alpha.height, gravity: .west, background: (255, 255, 255)).pixels()
        #expect(padded.bands == 4 && Array(padded.bytes[(padded.width - 1) * 4..<padded.width * 4]) == [255, 255, 255, 255])
        #expect(throws: ImagingError.self) { try image.extended(toWidth: 0, height: 10) }
        // A canvas has no region of interest: attention places the image as the centre does.
        let attention = try image.extended(toWidth: 200, height: 200, gravity: .attention).pixels()
        #expect(attention.bytes == (try image.extended(toWidth: 200, height: 200, gravity: .centre).pixels().bytes))
    }

    @Test("sharpen keeps the picture (dHash ≤ 5) and the size, changes pixels, and matches `vips sharpen` where the tool is installed")
    func sharpen() async throws {
        let image = try baseline().materialized()
        let sharp = try image.sharpened(sigma: 1)
        #expect(sharp.width == image.width && sharp.height == image.height)
        #expect(try sharp.pixels() != (try image.pixels()))
        #expect(try sharp.perceptualHash().distance(to: try image.perceptualHash()) <= 5)
        #expect(try image.sharpened(sigma: 0).pixels() == (try image.pixels()))
        #expect(throws: ImagingError.self) { try image.sharpened(sigma: -1) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vips") else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-sharpen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png"), output = folder.appendingPathComponent("out.png")
        try ImageEncoder.encode(image, as: .png(PNGOptions())).write(to: input)
        let vips = try ChildProcess("/usr/bin/vips", ["sharpen", input.path, output.path, "--sigma", "1"])
        let ran = await vips.result(killAfter: .seconds(120))
        try #require(ran.termination == .exited(0), "vips sharpen: \(ran.standardError)")
        let reference = try ImageDecoder().decode(try Data(contentsOf: output))
        #expect(try sharp.perceptualHash().distance(to: try reference.perceptualHash()) <= 2)
    }
}
