import FuzzSupport
import VignetteCodecs

/// libFuzzer target: SVG sources, sanitised (`SVGDocument.sanitized`, Vignette's `SVGSanitizer`)
/// and rendered by librsvg through libvips' `svgload` at a thumbnail's scale. Any bytes must give
/// a result or an `ImagingError`, never a crash, a hang or an allocation over the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVG(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzInput.data(bytes, count)
    var limits = DecodingLimits.untrusted
    // Within libFuzzer's 10 s timeout: a slow render is stopped and counted as refused.
    limits.maxRenderSeconds = 4
    guard (try? SVGDocument.sanitized(data, limits: limits)) != nil else { return 0 }
    _ = try? Thumbnailer(options: ThumbnailOptions(width: 48, height: 48), limits: limits).thumbnail(data)
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzSVG) }
}
