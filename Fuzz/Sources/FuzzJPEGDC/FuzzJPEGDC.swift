import FuzzSupport
import VignetteCodecs

/// libFuzzer target, differential: each input decoded at 1/8 by the JPEG DC paths (`JPEGDC`: the
/// DC-only entropy decoder, the DC-scans-only progressive stream) and by libjpeg-turbo
/// (`tjDecompressToYUVPlanes`). The samples must be identical, or the DC path must have declined;
/// a progressive file that libjpeg-turbo decodes with a warning about its AC scans' data may be
/// decoded from its DC scans (the known gap, see `JPEGDC`). Anything else traps. Sources above
/// 16 megapixels are skipped, so that libjpeg-turbo's whole-image buffers stay within the fuzzer's
/// memory limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDC(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzInput.data(bytes, count)
    if case .differs(let what) = JPEGDC.compare(data, maxPixels: 16_000_000, avoidingReferenceOverread: true) {
        fatalError("FuzzJPEGDC: the DC path and libjpeg-turbo differ: \(what)")
    }
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzJPEGDC) }
}
