import Foundation
import Testing
import VignetteCodecs

@Suite("Embedded thumbnails: used when big enough, not otherwise")
struct EmbeddedThumbnailTests {
    /// thumbnail.heic is 1280×960 with a 320×240 thumbnail item.
    @Test("HEIF: a 256 box uses the 320×240 thumbnail item; a 640 box decodes the image")
    func heif() throws {
        let path = TestFiles.fixture("thumbnail.heic").path
        let small = try Thumbnailer(options: ThumbnailOptions(size: 256)).thumbnail(fileAt: path)
        #expect(small.route == .embeddedThumbnail(kind: "heif"))
        #expect(small.image.width == 256 && small.image.height == 192)

        let exact = try Thumbnailer(options: ThumbnailOptions(size: 320)).thumbnail(fileAt: path)
        #expect(exact.route == .embeddedThumbnail(kind: "heif"))

        let large = try Thumbnailer(options: ThumbnailOptions(size: 640)).thumbnail(fileAt: path)
        #expect(large.route == .fullDecode)
        #expect(large.image.width == 640 && large.image.height == 480)

        // The thumbnail item shows the same picture.
        #expect(try small.image.perceptualHash().distance(to: large.image.perceptualHash()) <= 5)
    }

    @Test("HEIF: switched off, the image is decoded")
    func heifOff() throws {
        var options = ThumbnailOptions(size: 256)
        options.useEmbeddedThumbnail = false
        let thumbnail = try Thumbnailer(options: options).thumbnail(fileAt: TestFiles.fixture("thumbnail.heic").path)
        #expect(thumbnail.route == .fullDecode)
    }

    /// exif-thumbnail.jpg is 640×480 with a 160×120 EXIF thumbnail.
    @Test("JPEG EXIF: a 128 box uses the 160×120 EXIF thumbnail; a 256 box does not")
    func exif() throws {
        let path = TestFiles.fixture("exif-thumbnail.jpg").path
        let small = try Thumbnailer(options: ThumbnailOptions(size: 128)).thumbnail(fileAt: path)
        #expect(small.route == .embeddedThumbnail(kind: "exif"))
        #expect(small.image.width == 128 && small.image.height == 96)
        let large = try Thumbnailer(options: ThumbnailOptions(size: 256)).thumbnail(fileAt: path)
        #expect(large.route == .shrinkOnLoad(scale: 0.5))
        #expect(try small.image.perceptualHash().distance(to: large.image.perceptualHash()) <= 5)
    }

    @Test("probe reports the embedded thumbnail's size")
    func probe() throws {
        #expect(try ImageDecoder().probe(fileAt: TestFiles.fixture("thumbnail.heic").path).embeddedThumbnail == PixelSize(width: 320, height: 240))
        #expect(try ImageDecoder().probe(fileAt: TestFiles.fixture("baseline.jpg").path).embeddedThumbnail == nil)
    }
}
