import FuzzSupport
import VignetteCodecs

/// libFuzzer target: BMP files through Vignette's own decoder (`BMPHeader`, `BMPDecoder`), by
/// every public path: probe, decode and thumbnail. The first byte picks the fail-on level and the
/// box; the rest is the file. Any bytes must give an image or an `ImagingError`, never a crash,
/// an over-read or an allocation past the (small) limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBMP(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes, count > 1 else { return 0 }
    let selector = Int(bytes[0])
    let data = FuzzInput.data(bytes + 1, count - 1)
    var limits = DecodingLimits(
        maxPixels: 4_000_000, maxSourcePixels: 4_000_000, maxMemoryBytes: 64 << 20, maxInputBytes: 16 << 20, maxFrames: 10,
        failOn: selector & 1 == 0 ? .error : .none)
    limits.maxRenderSeconds = 4
    let decoder = ImageDecoder(limits: limits)
    _ = try? decoder.probe(data)
    if let image = try? decoder.decode(data) {
        // The pixels are all there: reading every one must not fault.
        _ = try? image.pixels()
    }
    let side = [1, 16, 64][(selector >> 1) % 3]
    _ = try? Thumbnailer(options: ThumbnailOptions(width: side, height: side), limits: limits).thumbnail(data)
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzBMP) }
}
