import Foundation
import Testing
@testable import Vignette

@Suite("ImageRequest")
struct ImageRequestTests {
    @Test("copies share storage until one is changed; changing a copy leaves the original alone")
    func copyOnWrite() {
        let original = ImageRequest(path: "/a.jpg", processors: [ImageProcessors.GaussianBlur(sigma: 2)])
        var copy = original
        #expect(copy.storage === original.storage)
        copy.priority = .veryHigh
        copy.processors.append(ImageProcessors.Circle())
        #expect(copy.storage !== original.storage)
        #expect(original.priority == .normal)
        #expect(original.processors.count == 1)
        #expect(copy.processors.count == 2)
        // A uniquely held request mutates in place.
        let before = ObjectIdentifier(copy.storage)
        copy.options.insert(.disableDiskCache)
        #expect(ObjectIdentifier(copy.storage) == before)
    }

    @Test("keys: equal requests give equal keys; processors, thumbnails and the image id change them")
    func keys() {
        let a = ImageRequest(path: "/a.jpg", processors: [ImageProcessors.Resize(size: 100)])
        let b = ImageRequest(path: "/a.jpg", processors: [ImageProcessors.Resize(size: 100)])
        #expect(ImageCacheKey(request: a) == ImageCacheKey(request: b))
        #expect(ImageCacheKey(request: a).hashValue == ImageCacheKey(request: b).hashValue)
        var c = a
        c.processors = [ImageProcessors.Resize(size: 101)]
        #expect(ImageCacheKey(request: a) != ImageCacheKey(request: c))
        var d = a
        d.thumbnail = ThumbnailOptions(size: 64)
        #expect(ImageCacheKey(request: a) != ImageCacheKey(request: d))
        var e = ImageRequest(path: "/b.jpg?sig=1")
        var f = ImageRequest(path: "/b.jpg?sig=2")
        e.imageID = "b"
        f.imageID = "b"
        #expect(ImageCacheKey(request: e) == ImageCacheKey(request: f))
        // The same, given when the request is made.
        let signed1 = ImageRequest(url: URL(string: "https://example.invalid/b.jpg?sig=1")!, imageID: "b")
        let signed2 = ImageRequest(url: URL(string: "https://example.invalid/b.jpg?sig=2")!, imageID: "b")
        #expect(ImageCacheKey(request: signed1) == ImageCacheKey(request: signed2) && signed1.effectiveImageID == "b")
        #expect(ImageCacheKey(request: signed1) == ImageCacheKey(request: e))
        #expect(ImageCacheKey(request: ImageRequest(url: URL(string: "https://example.invalid/b.jpg?sig=1")!)) != ImageCacheKey(request: e))
        #expect(DiskKeys.processed(a) == "file:///a.jpg|resize(100x100,inside,centre,down,lanczos3)")
        #expect(ImageKey(a).prefix(0) == ImageKey(ImageRequest(path: "/a.jpg")))
    }
}
