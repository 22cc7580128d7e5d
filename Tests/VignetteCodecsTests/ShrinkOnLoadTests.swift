import Foundation
import Testing
import VignetteCodecs

@Suite("Shrink-on-load chosen by Vignette vs libvips' vips_thumbnail")
struct ShrinkOnLoadTests {
    static let photos = [
        "2569067123_aca715a2ee_o.jpg", "Landscape_1.jpg", "Landscape_6.jpg", "Landscape_9.jpg", "gain-map.jpg",
        "giant-image.jpg", "Channel_digital_image_CMYK_color.jpg", "4.webp", "5_webp_a.webp",
    ]

    @Test("the fast path stays within dHash 5 of vips_thumbnail", .corpus, arguments: photos, [256, 720])
    func similarity(file: String, box: Int) throws {
        let data = try TestFiles.data(TestFiles.corpusFile(file))
        var options = ThumbnailOptions(width: box, height: box * 588 / 720)
        let fast = try Thumbnailer(options: options).thumbnail(data)
        options.method = .vipsThumbnail
        let reference = try Thumbnailer(options: options).thumbnail(data)
        #expect(reference.route == .vipsThumbnail)
        #expect(fast.image.width == reference.image.width && fast.image.height == reference.image.height)
        let distance = try fast.image.perceptualHash().distance(to: reference.image.perceptualHash())
        #expect(distance <= 5, "\(file) at \(box): dHash distance \(distance)")
    }

    @Test("sharp's task decodes the 2725×2225 JPEG at 1/2 scale", .corpus)
    func sharpTask() throws {
        let options = ThumbnailOptions(width: 720, height: 588, kernel: .lanczos3)
        let thumbnail = try Thumbnailer(options: options).thumbnail(fileAt: TestFiles.corpusFile("2569067123_aca715a2ee_o.jpg").path)
        #expect(thumbnail.route == .shrinkOnLoad(scale: 0.5))
        #expect(thumbnail.image.width == 720 && thumbnail.image.height == 588)
    }

    @Test("WebP uses a scaled decode", .corpus)
    func webp() throws {
        let thumbnail = try Thumbnailer(options: ThumbnailOptions(size: 256)).thumbnail(fileAt: TestFiles.corpusFile("4.webp").path)
        guard case .shrinkOnLoad(let scale) = thumbnail.route else {
            Issue.record("expected shrink-on-load, got \(thumbnail.route)")
            return
        }
        #expect(scale < 0.3)
        #expect(thumbnail.image.width == 256)
    }
}
