import FuzzSupport
import VignetteCodecs

/// libFuzzer target: decode, thumbnail and encode with the default limits (`DecodingLimits.untrusted`),
/// every format libvips reads. The first byte picks the box, fit, route and output format; the rest
/// is the image.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzThumbnail(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes, count > 1 else { return 0 }
    let selector = Int(bytes[0])
    let data = FuzzInput.data(bytes + 1, count - 1)
    let fits = ThumbnailOptions.Fit.allCases
    var options = ThumbnailOptions(width: [1, 7, 64][selector % 3], height: [1, 64, 5][(selector / 3) % 3],
                                   fit: fits[(selector / 9) % fits.count])
    options.method = selector & 0x40 == 0 ? .shrinkOnLoad : .vipsThumbnail
    let thumbnailer = Thumbnailer(options: options)
    if selector & 0x80 == 0 {
        _ = try? thumbnailer.thumbnail(data)
    } else {
        let formats: [EncodingFormat] = [
            .jpeg(JPEGOptions()), .png(PNGOptions()), .webp(WebPOptions()), .jxl(JXLOptions(effort: 3)), .tiff(TIFFOptions()), .bmp, .ico,
        ]
        _ = try? thumbnailer.encodedThumbnail(data, as: formats[selector % formats.count])
    }
    if selector & 0x20 != 0 { _ = try? ImageDecoder().decode(data) }
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzThumbnail) }
}
