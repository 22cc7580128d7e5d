import FuzzSupport
import VignetteCodecs

/// libFuzzer target, differential: each input decoded at 1/8, 1/4 and 1/2 by Vignette's own JPEG
/// paths (`JPEGDC`: the DC-only entropy decoder and the DC-scans-only progressive stream at 1/8,
/// the reduced-scale decoder at 1/4 and 1/2) and by libjpeg-turbo (`tjDecompressToYUVPlanes`).
/// The samples must be identical, or the own path must have declined;
/// a progressive file that libjpeg-turbo decodes with a warning about its AC scans' data may be
/// decoded from its DC scans (the known gap, see `JPEGDC`). Anything else traps. Sources above
/// 16 megapixels are skipped, so that libjpeg-turbo's whole-image buffers stay within the fuzzer's
/// memory limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDC(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzInput.data(bytes, count)
    for denominator in [8, 4, 2] {
        if case .differs(let what) = JPEGDC.compare(
            data, denominator: denominator, maxPixels: 16_000_000, avoidingReferenceOverread: true)
        {
            fatalError("FuzzJPEGDC: the own path and libjpeg-turbo differ: \(what)")
        }
    }
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzJPEGDC) }
}
