import Testing
import VignetteSupport
import VignetteCodecs
import Vignette
import VignetteHummingbird
@testable import VignetteImgproxy
@testable import VignetteServer

@Suite("imgproxy URLs: options, sources, signatures")
struct ImgproxyURLTests {
    static let key = "943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881"
    static let salt = "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5"

    func reader(key: String? = nil, presets: [String: String] = [:]) throws -> ImageURLReader {
        try ImageURLReader(signatureKey: key, signatureSalt: key == nil ? nil : Self.salt, presets: presets, limits: .untrusted)
    }

    func parse(_ path: String, presets: [String: String] = [:]) throws -> (ImageRecipe, String) {
        let parsed = try reader(presets: presets).parse(path)
        return (parsed.recipe, parsed.source)
    }

    /// The plan of the recipe `options` make.
    func plan(_ options: String) throws -> RecipePlan { try reader().order(for: "/_/\(options)/plain/local:///a.jpg").recipe.plan() }

    @Test("signatures: HMAC-SHA256 over salt + path, base64url without padding (vectors from Python's hmac)")
    func signatures() throws {
        let signer = try #require(URLSignature(keyHex: Self.key, saltHex: Self.salt))
        let base64Path = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
        #expect(signer.signature(of: base64Path[...]) == "90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40")
        let plainPath = "/rs:fit:64:64/plain/local:///baseline.jpg@png"
        #expect(signer.signature(of: plainPath[...]) == "mjx3vIE-d4GiEh9Hl97EItU5XqooszPbj-5HuYpK2eQ")

        let signed = try reader(key: Self.key)
        let (options, source, _) = try signed.parse("/90UxdwGRAI2bpLSHKkZculJau5ahfxfS0h3fMuQAf40" + base64Path)
        #expect(source == "http://example.com/images/curiosity.jpg")
        #expect(options.resizingType == .fill && options.width == 300 && options.height == 400 && options.gravity == .attention)
        #expect(options.format == .png)
        // With padding it is the same signature.
        _ = try signed.parse("/mjx3vIE-d4GiEh9Hl97EItU5XqooszPbj-5HuYpK2eQ=" + plainPath)
        for bad in ["/insecure", "/_", "/mjx3vIE-d4GiEh9Hl97EItU5XqooszPbj-5HuYpK2eR", "/", "/!!!"] {
            #expect(throws: ImageFailure.forbidden("invalid signature"), "\(bad)") { try signed.parse(bad + plainPath) }
        }
        // A signature for another path does not carry over.
        #expect(throws: ImageFailure.forbidden("invalid signature")) {
            try signed.parse("/mjx3vIE-d4GiEh9Hl97EItU5XqooszPbj-5HuYpK2eQ/rs:fit:65:64/plain/local:///baseline.jpg@png")
        }
        // Without a key any signature segment is accepted.
        for any in ["/insecure", "/_", "/whatever"] { _ = try reader().parse(any + plainPath) }
        #expect(URLSignature(keyHex: "abc", saltHex: "") == nil && URLSignature(keyHex: "zz", saltHex: "") == nil)
        #expect(URLSignature(keyHex: "", saltHex: "00") == nil)
    }

    @Test("every option by its full and short name")
    func options() throws {
        let pairs: [(String, String)] = [
            ("resize:fill:100:50:1:0", "rs:fill:100:50:1:0"), ("size:100:50:t", "s:100:50:t"),
            ("resizing_type:force", "rt:force"), ("width:120", "w:120"), ("height:80", "h:80"),
            ("enlarge:1", "el:1"), ("extend:1:so", "ex:1:so"), ("gravity:noea", "g:noea"), ("quality:70", "q:70"),
            ("format:webp", "f:webp"), ("blur:2.5", "bl:2.5"), ("sharpen:0.7", "sh:0.7"), ("rotate:90", "rot:90"),
            ("background:255:0:10", "bg:ff000a"), ("dpr:2", "dpr:2"), ("strip_metadata:false", "sm:0"),
            ("cachebuster:v2", "cb:v2"),
        ]
        for (full, short) in pairs {
            let (a, _) = try parse("/_/\(full)/plain/local:///a.jpg")
            let (b, _) = try parse("/_/\(short)/plain/local:///a.jpg")
            #expect(a == b, "\(full) vs \(short)")
            #expect(a != ImageRecipe(), "\(full) changed nothing")
        }
        #expect(try parse("/_/ext:avif/plain/local:///a.jpg").0.format == .avif)
        for (name, format) in [("jxl", ImageFormat.jxl), ("tiff", .tiff), ("tif", .tiff), ("bmp", .bmp), ("ico", .ico)] {
            #expect(try parse("/_/f:\(name)/plain/local:///a.jpg").0.format == format)
            #expect(try parse("/_/w:10/plain/local:///a.jpg@\(name)").0.format == format)
        }
        let (options, _) = try parse("/_/rs:fill-down:300:200/g:sm/q:55/bl:3/dpr:1.5/plain/local:///a.jpg")
        #expect(options.resizingType == .fillDown && options.width == 300 && options.height == 200)
        #expect(options.gravity == .attention && options.quality == 55 && options.blur == 3 && options.dpr == 1.5)
        // Empty arguments keep what was there.
        let (kept, _) = try parse("/_/s:100:50/rs:fit::80/plain/local:///a.jpg")
        #expect(kept.width == 100 && kept.height == 80)
    }

    @Test("gravity picks the part a fill keeps: compass points, centre, smart")
    func gravityCrops() throws {
        let expected: [(String, Gravity)] = [
            ("no", .north), ("so", .south), ("ea", .east), ("we", .west), ("noea", .northEast), ("nowe", .northWest),
            ("soea", .southEast), ("sowe", .southWest), ("ce", .centre), ("sm", .attention),
        ]
        for (gravity, anchor) in expected {
            let thumbnail = try plan("rs:fill:100:100/g:\(gravity)").thumbnail
            #expect(thumbnail.crop == anchor, "\(gravity)")
            #expect(thumbnail.fit == .cover)
        }
        #expect(try plan("rs:auto:100:50").thumbnail.fit == .auto)
    }

    @Test("sources: plain (percent-encoded, @extension), base64url with and without padding, split by /, no extension")
    func sources() throws {
        #expect(try parse("/_/w:10/plain/local:///a%20b.jpg@png") == (try parse("/_/w:10/plain/local:///a b.jpg@png")))
        let (plain, plainSource) = try parse("/_/w:10/plain/https://example.com/x.jpg%3Fv%3D1@webp")
        #expect(plainSource == "https://example.com/x.jpg?v=1" && plain.format == .webp)
        let (none, noneSource) = try parse("/_/w:10/plain/https://example.com/x.jpg")
        #expect(noneSource == "https://example.com/x.jpg" && none.format == nil)
        let encoded = Base64URL.encode(Array("https://example.com/dir/photo.jpg".utf8))
        #expect(try parse("/_/w:10/\(encoded).jpg").1 == "https://example.com/dir/photo.jpg")
        #expect(try parse("/_/w:10/\(encoded)").0.format == nil)
        let padded = Base64URL.encode(Array("local:///ab.jpg".utf8))
        #expect(try parse("/_/w:10/\(padded)==.png").1 == "local:///ab.jpg" || (try parse("/_/w:10/\(padded).png").1) == "local:///ab.jpg")
        let middle = encoded.index(encoded.startIndex, offsetBy: 8)
        #expect(try parse("/_/w:10/\(encoded[..<middle])/\(encoded[middle...]).png").1 == "https://example.com/dir/photo.jpg")
        // No options at all.
        #expect(try parse("/_/plain/local:///a.jpg").1 == "local:///a.jpg")
        // Sources are kept as given: the path checks come when they are resolved.
        #expect(try parse("/_/plain/local:///../etc/passwd").1 == "local:///../etc/passwd")
    }

    @Test("presets: named, several at once, the default one, and unknown ones")
    func presets() throws {
        let presets = ["thumb": "rs:fill:200:200/q:70", "soft": "bl:2", "default": "q:90/f:jpg"]
        let (options, _) = try parse("/_/pr:thumb:soft/plain/local:///a.jpg", presets: presets)
        #expect(options.resizingType == .fill && options.width == 200 && options.quality == 70 && options.blur == 2)
        #expect(options.format == .jpeg)  // from the default preset
        let (plain, _) = try parse("/_/w:10/plain/local:///a.jpg", presets: presets)
        #expect(plain.quality == 90)
        #expect(throws: ImageFailure.badRequest("unknown preset \"nope\"")) { try parse("/_/preset:nope/plain/local:///a.jpg", presets: presets) }
        #expect(throws: ImageFailure.self) { try parse("/_/pr:loop/plain/local:///a.jpg", presets: ["loop": "pr:loop"]) }
    }

    @Test("malformed URLs and options are 400 with a short reason; an unknown format is 415", arguments: [
        "", "nothing", "/", "/_", "/_/", "/_/w:10", "/_/w:10/plain/", "/_/w:10/plain/@png", "/_/nope:1/plain/local:///a.jpg",
        "/_/w:abc/plain/local:///a.jpg", "/_/w:-1/plain/local:///a.jpg", "/_/w:100001/plain/local:///a.jpg",
        "/_/w:1:2/plain/local:///a.jpg", "/_/rs:zoom:1:1/plain/local:///a.jpg", "/_/el:yes/plain/local:///a.jpg",
        "/_/g:middle/plain/local:///a.jpg", "/_/q:101/plain/local:///a.jpg", "/_/rot:nan/plain/local:///a.jpg", "/_/rot:inf/plain/local:///a.jpg", "/_/rot:/plain/local:///a.jpg", "/_/rot:abc/plain/local:///a.jpg",
        "/_/bg:12345/plain/local:///a.jpg", "/_/bg:1:2/plain/local:///a.jpg", "/_/bg:300:0:0/plain/local:///a.jpg",
        "/_/dpr:0/plain/local:///a.jpg", "/_/dpr:9/plain/local:///a.jpg", "/_/bl:nan/plain/local:///a.jpg",
        "/_/bl:1e400/plain/local:///a.jpg", "/_/w:10/plain/local:///a%zz.jpg", "/_/w:10/!!!.png", "/_/w:10/enc/abc",
        "/_/w:10/plain/local:///a%0Ab.jpg", "/_/:/plain/local:///a.jpg", "/_/w:99999999999999999999/plain/a",
    ])
    func malformed(path: String) {
        guard let urls = try? reader() else {
            Issue.record("no reader")
            return
        }
        do throws(ImageFailure) {
            _ = try urls.parse(path)
            Issue.record("\(path) was accepted")
        } catch {
            #expect(error.status == .badRequest, "\(path): \(error)")
            #expect(error.reason.count < 80)
        }
        #expect(throws: ImageFailure(.unsupportedMediaType, reason: "this server cannot write that format: Vignette cannot write \"pcx\"")) { try reader().parse("/_/w:10/plain/local:///a.jpg@pcx") }
    }

    @Test("options to Vignette: the box with dpr, fits, gravity, enlarge, blur; unsupported operations are refused")
    func mapping() throws {
        func order(_ options: String) throws -> ImageOrder { try reader().order(for: "/_/\(options)/plain/local:///a.jpg") }
        let fill = try plan("rs:fill:100:50:1/g:sm/bl:2/dpr:2").thumbnail
        #expect(fill.width == 100 && fill.height == 50 && fill.dpr == 2 && fill.fit == .cover && fill.crop == .attention)
        #expect(fill.allowUpscaling && fill.blurSigma == 2)
        #expect(try plan("rs:force:10:20").thumbnail.fit == .fill)
        #expect(try plan("rs:fit:10:20").thumbnail.fit == .inside)
        let widthOnly = try plan("w:300").thumbnail
        // A side of 0 is imgproxy's: the thumbnail leaves it to the other side's scale.
        #expect(widthOnly.width == 300 && widthOnly.height == 0 && widthOnly.allowsZeroSides && widthOnly.fit == .inside)
        #expect(try order("q:40/f:webp").recipe.encoding(accepting: []) == .fixed(.webp(WebPOptions(quality: 40))))
        #expect(try plan("bg:ffffff").processors.map(\.identifier) == ["flatten(255.0,255.0,255.0)"])
        // Rotation turns the box first (imgproxy rotates before resizing); then sharpen, flatten onto
        // the background, extend (the order `vignette thumbnail` uses: both plan with ImageRecipe).
        let turned = try plan("rs:fit:100:50/rot:90/sh:0.5/ex:1:so/bg:10:20:30")
        #expect(turned.thumbnail.width == 50 && turned.thumbnail.height == 100)
        #expect(turned.processors.map(\.identifier) == [
            "rotate(90)", "sharpen(0.5)", "flatten(10.0,20.0,30.0)", "extend(100x50 dpr(1.0,1.0,1.0),south,10.0,20.0,30.0)",
        ])
        // A fill crop kept at the top of the result is taken from the left before a clockwise quarter turn.
        #expect(try plan("rs:fill:100:50/g:no/rot:90").thumbnail.crop == .west)
        #expect(try plan("rs:fill:100:50/g:no/dpr:1.5").thumbnail.dpr == 1.5)
    }
}
