import FuzzSupport
import VignetteCodecs

/// libFuzzer target: PDF sources through poppler (libvips' `pdfload`): the header, then a page
/// rendered at a thumbnail's scale, the first or (by the first byte) another. Any bytes must
/// give a result or an `ImagingError`, never a crash, a hang or an allocation over the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPDF(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes, count > 1 else { return 0 }
    let data = FuzzInput.data(bytes + 1, count - 1)
    var limits = DecodingLimits.untrusted
    // Within libFuzzer's 10 s timeout: a slow render is stopped and counted as refused.
    limits.maxRenderSeconds = 4
    var decoder = ImageDecoder(limits: limits)
    decoder.picture.page = Int(bytes[0] % 3)
    guard let info = try? decoder.probe(data), info.format == .pdf else { return 0 }
    var options = ThumbnailOptions(width: 48, height: 48)
    options.page = decoder.picture.page
    _ = try? Thumbnailer(options: options, limits: limits).thumbnail(data)
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzPDF) }
}
