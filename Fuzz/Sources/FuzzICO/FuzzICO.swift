import FuzzSupport
import VignetteCodecs

/// libFuzzer target: ICO and CUR files (`ICODirectory`, their PNG entries through libvips, their
/// bitmap entries through `BMPDecoder`): probe, decode, and thumbnails whose box picks an entry.
/// The first byte picks the box and the fail-on level; the rest is the file. Any bytes must give
/// an image or an `ImagingError`, never a crash, an over-read or an allocation past the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICO(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes, count > 1 else { return 0 }
    let selector = Int(bytes[0])
    let data = FuzzInput.data(bytes + 1, count - 1)
    var limits = DecodingLimits(
        maxPixels: 4_000_000, maxSourcePixels: 4_000_000, maxMemoryBytes: 64 << 20, maxInputBytes: 16 << 20, maxFrames: 10,
        failOn: selector & 1 == 0 ? .error : .none)
    limits.maxRenderSeconds = 4
    let decoder = ImageDecoder(limits: limits)
    _ = try? decoder.probe(data)
    if let image = try? decoder.decode(data) { _ = try? image.pixels() }
    let side = [8, 16, 32, 48, 100, 300][(selector >> 1) % 6]
    _ = try? Thumbnailer(options: ThumbnailOptions(width: side, height: side), limits: limits).thumbnail(data)
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzICO) }
}
