import FuzzSupport
import VignetteCodecs

/// libFuzzer target: the gain-map readers and the keep-the-gain-map path. The first byte picks
/// what the rest is: a whole JPEG (`GainMapJPEG`, then, for a file that has a gain map and is
/// small, a thumbnail of it kept with its gain map: decode, resize, encode, MPF and XMP written
/// back), or the payload of one segment (MPF index, ISO 21496-1, hdrgm XMP). Any bytes must give
/// a value or an `ImagingError`, never a crash, a hang or an allocation over the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGainMap(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes, count > 1 else { return 0 }
    let selector = bytes[0]
    let data = FuzzInput.data(bytes + 1, count - 1)
    switch selector % 4 {
    case 0:
        _ = try? MultiPictureIndex(payload: (MultiPictureIndex.signature + [UInt8](data))[...])
    case 1:
        _ = try? ISOGainMapMetadata(payload: (ISOGainMapMetadata.signature + [UInt8](data))[...])
    case 2:
        _ = try? GainMapMetadata(xmp: String(decoding: data, as: UTF8.self))
    default:
        guard GainMapJPEG.mayHaveGainMap(data), let container = try? GainMapJPEG(data) else { return 0 }
        // The whole path on small inputs only: a thumbnail of 48 pixels, its gain map kept.
        guard data.count <= 1 << 18 else { return 0 }
        let options = ThumbnailOptions(width: 48, height: 48, fit: selector & 0x10 == 0 ? .inside : .cover)
        guard let (primary, made) = try? Thumbnailer(options: options).encodedThumbnail(data, as: .jpeg(JPEGOptions())) else { return 0 }
        let result = PixelSize(width: made.image.width, height: made.image.height)
        // The source's own orientation (the thumbnail's), or another one, whose size may not match.
        let orientation = selector & 0x20 == 0 ? ((try? ImageDecoder().probe(data).orientation) ?? 1) : Int(selector >> 6) + 5
        let kept = try? container.keeping(in: primary, result: result, limits: .untrusted) { (gainMap) throws(ImagingError) in
            (try gainMap.oriented(orientation).resized(toFit: options), orientation >= 5)
        }
        // What was written reads back as a gain-map JPEG.
        if let kept, (try? GainMapJPEG(kept)) == nil { fatalError("a kept gain map does not read back") }
    }
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzGainMap) }
}
