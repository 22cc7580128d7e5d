import FuzzSupport
import Vignette
import VignetteImgproxy
import VignetteSupport

/// libFuzzer target: an imgproxy URL's options and source as the library reads them
/// (`ImgproxyOptions` into an `ImageRecipe`, its checks, its plan and its encoding choice, the
/// base64url and percent-decoding of sources and file names). Every input must end in a recipe
/// or a typed error: no trap, no hang, no allocation sized by the input's numbers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImgproxyOptions(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: FuzzInput.data(bytes, count), as: UTF8.self)
    let parser = ImgproxyOptions(presets: ["a": "rs:fill:10:10/pr:b", "b": "q:50/pr:a", "default": "sm:1"])
    var recipe = ImageRecipe(), delivery = ImgproxyOptions.Delivery()
    for segment in text.split(separator: "/").prefix(64) {
        try? parser.apply(segment, to: &recipe, delivery: &delivery)
    }
    var limits = DecodingLimits.untrusted
    limits.maxPixels = 1 << 24
    if let plan = try? recipe.plan(limits: limits) {
        _ = plan.outputSize(forUpright: PixelSize(width: 1 + count % 5000, height: 1 + count % 3000))
        _ = plan.thumbnail.identifier
        _ = plan.processors.map(\.identifier)
        _ = try? recipe.encoding(accepting: [.webp, .avif])
    }
    _ = delivery.hasExpired(now: count)
    URLTextDecoding.decodeAll(text)
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzImgproxyOptions) }
}
