import FuzzSupport
import VignetteCodecs

/// libFuzzer target: the metadata readers of `/info`. The first byte picks what the rest is: an
/// EXIF block (`EXIFReader`), an IPTC/Photoshop block (`IPTCReader`), an XMP packet
/// (`XMPReader`), or a whole image, whose header facts are read (`ImageDecoder.headerFacts`) and
/// each of its blocks given to its reader. Any bytes must give a value (its JSON written out) or
/// an `ImagingError`, never a crash, a hang or an allocation over the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadata(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes, count > 1 else { return 0 }
    let data = FuzzInput.data(bytes + 1, count - 1)
    switch bytes[0] % 4 {
    case 0: _ = EXIFReader.read(data).jsonText
    case 1:
        let (iptc, photoshop) = IPTCReader.read(data)
        _ = (iptc?.jsonText, photoshop?.jsonText)
    case 2: _ = XMPReader.read(data).jsonText
    default:
        guard let facts = try? ImageDecoder().headerFacts(data) else { return 0 }
        _ = facts.exif.map { EXIFReader.read($0).jsonText }
        _ = facts.iptc.map { IPTCReader.read($0).iptc?.jsonText }
        _ = facts.xmp.map { XMPReader.read($0).jsonText }
    }
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzMetadata) }
}
