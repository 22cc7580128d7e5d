import ChildProcess
import Foundation
import Testing
@testable import VignetteCodecs

/// Rotation by any angle (`vips_rotate`) and the attention window one crop of an animation shares.
@Suite("Rotation by any angle; the attention window")
struct AnyAngleRotationTests {
    /// A 400×300 photo.
    func photo() throws -> Image {
        try ImageDecoder().decode(try TestFiles.data(TestFiles.fixture("baseline.jpg"))).resized(toWidth: 400, height: 300).materialized()
    }

    func pixel(_ buffer: PixelBuffer, _ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * buffer.width + x) * buffer.bands
        return Array(buffer.bytes[start..<start + buffer.bands])
    }

    @Test("45° of a 400×300 photo is 495×495 with white corners, or the background asked for; the middle is the photo's")
    func fortyFive() throws {
        let image = try photo()
        let turned = try image.rotated(byDegrees: 45).pixels()
        #expect(turned.width == 495 && turned.height == 495 && turned.bands == 3)
        for (x, y) in [(0, 0), (494, 0), (0, 494), (494, 494)] { #expect(pixel(turned, x, y) == [255, 255, 255]) }
        #expect(Image.rotatedSize(PixelSize(width: 400, height: 300), degrees: 45) == PixelSize(width: 495, height: 495))
        let green = try image.rotated(byDegrees: 45, background: (0, 255, 0)).pixels()
        #expect(pixel(green, 0, 0) == [0, 255, 0] && pixel(green, 494, 494) == [0, 255, 0])
        // The centre of the turned image is the centre of the photo.
        let centre = pixel(try image.pixels(), 200, 150)
        #expect(zip(pixel(turned, 247, 247), centre).allSatisfy { abs(Int($0) - Int($1)) <= 12 })
    }

    @Test("an image with alpha gets transparent corners; with a background, opaque ones")
    func alphaCorners() throws {
        let alpha = try ImageDecoder().decode(try TestFiles.data(TestFiles.fixture("alpha.png")))
        let turned = try alpha.rotated(byDegrees: 30).pixels()
        #expect(turned.bands == 4 && pixel(turned, 0, 0)[3] == 0)
        let filled = try alpha.rotated(byDegrees: 30, background: (255, 0, 0)).pixels()
        #expect(pixel(filled, 0, 0) == [255, 0, 0, 255])
    }

    @Test("quarter turns by angle are vips_rot's exact turns, -90 and 450 included")
    func quarterTurns() throws {
        let image = try photo()
        for (angle, turn) in [(90.0, 90), (-90, 270), (450, 90), (180, 180), (360, 0), (-720, 0)] {
            #expect(try image.rotated(byDegrees: angle).pixels() == (try image.rotated(degrees: turn).pixels()), "\(angle)")
        }
        #expect(Image.quarterTurns(-90) == 3 && Image.quarterTurns(30) == nil && Image.quarterTurns(.nan) == nil)
    }

    @Test("an angle that is not a finite number is refused, naming it")
    func notANumber() throws {
        let image = try photo()
        for angle in [Double.nan, .infinity, -.infinity] {
            do {
                _ = try image.rotated(byDegrees: angle)
                Issue.record("\(angle) was taken")
            } catch {
                #expect(error.kind == .invalidArgument && error.message.contains("rotation"))
            }
        }
    }

    @Test("the same as `vips rotate` of the same image: the size, and the look by dHash", arguments: [30.0, 45, 137.5, 340])
    func matchesVips(angle: Double) async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vips") else { return }
        let image = try photo()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-rotate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png"), output = folder.appendingPathComponent("out.png")
        try ImageEncoder.encode(image, as: .png(PNGOptions())).write(to: input)
        let vips = try ChildProcess("/usr/bin/vips", ["rotate", input.path, output.path, String(angle), "--background", "255 255 255"])
        let ran = await vips.result(killAfter: .seconds(120))
        try #require(ran.termination == .exited(0), "vips rotate: \(ran.standardError)")
        let reference = try ImageDecoder().decode(try Data(contentsOf: output))
        let turned = try image.rotated(byDegrees: angle)
        #expect(turned.width == reference.width && turned.height == reference.height)
        #expect(Image.rotatedSize(PixelSize(width: 400, height: 300), degrees: angle) == PixelSize(width: reference.width, height: reference.height))
        #expect(try turned.perceptualHash().distance(to: try reference.perceptualHash()) <= 1)
    }

    @Test("the attention window is where vips_smartcrop cuts, and its focus point cuts there too")
    func attentionWindow() throws {
        let image = try photo()
        for size in [PixelSize(width: 120, height: 300), PixelSize(width: 400, height: 90), PixelSize(width: 150, height: 150)] {
            let smart = try image.cropped(toWidth: size.width, height: size.height, anchor: .attention).pixels()
            let (x, y) = try image.attentionWindow(size)
            #expect(try image.cropped(x: x, y: y, width: min(size.width, 400), height: min(size.height, 300)).pixels() == smart, "\(size)")
            var options = ThumbnailOptions(width: size.width, height: size.height, fit: .cover, crop: .attention)
            options.cropPosition = try image.attentionFocus(size)
            let geometry = ThumbnailGeometry(whole: PixelSize(width: 400, height: 300), croppedTo: PixelSize(width: min(size.width, 400), height: min(size.height, 300)))
            #expect(try image.croppedToResult(geometry, options: options).pixels() == smart, "\(size)")
        }
    }
}
