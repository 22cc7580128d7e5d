import Foundation
import Testing
import VignetteCodecs

@Suite("Cover crops at the edges and corners")
struct GravityTests {
    static let expectedOrigin: [(Gravity, Double, Double)] = [
        (.centre, 0.5, 0.5), (.north, 0.5, 0), (.south, 0.5, 1), (.east, 1, 0.5), (.west, 0, 0.5),
        (.northEast, 1, 0), (.northWest, 0, 0), (.southEast, 1, 1), (.southWest, 0, 1),
    ]

    @Test("each anchor cuts its window where it says", arguments: expectedOrigin)
    func window(anchor: Gravity, across: Double, down: Double) throws {
        let image = try ImageDecoder().decode(Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("baseline.jpg").path))).materialized()
        let (w, h) = (image.width / 3, image.height / 2)
        let cropped = try image.cropped(toWidth: w, height: h, anchor: anchor)
        #expect(cropped.width == w && cropped.height == h)
        let x = across == 0.5 ? (image.width - w) / 2 : Int(across) * (image.width - w)
        let y = down == 0.5 ? (image.height - h) / 2 : Int(down) * (image.height - h)
        let reference = try image.cropped(x: x, y: y, width: w, height: h)
        #expect(try cropped.pixels() == reference.pixels())
        // And not the centre's window, unless it is the centre.
        if anchor != .centre {
            #expect(try cropped.pixels() != image.cropped(toWidth: w, height: h, anchor: .centre).pixels())
        }
    }

    @Test("a cover thumbnail keeps the anchored part, on both routes", arguments: [Gravity.west, .east, .north, .southEast])
    func coverThumbnail(anchor: Gravity) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestFiles.fixture("baseline.jpg").path))
        var options = ThumbnailOptions(width: 48, height: 48, fit: .cover, crop: anchor)
        let fast = try Thumbnailer(options: options).thumbnail(data).image
        options.method = .vipsThumbnail
        let vips = try Thumbnailer(options: options).thumbnail(data).image
        #expect(fast.width == 48 && fast.height == 48 && vips.width == 48 && vips.height == 48)
        // The reference: the whole image resized to cover 48×48 by libvips, then cut at the anchor.
        let full = try ImageDecoder().decode(data)
        let scale = max(48 / Double(full.width), 48 / Double(full.height))
        let covering = try full.resized(
            toWidth: max(48, Int((Double(full.width) * scale).rounded())), height: max(48, Int((Double(full.height) * scale).rounded())))
        let reference = try covering.cropped(toWidth: 48, height: 48, anchor: anchor)
        #expect(try fast.perceptualHash().distance(to: reference.perceptualHash()) <= 5)
        #expect(try vips.perceptualHash().distance(to: reference.perceptualHash()) <= 5)
    }
}
