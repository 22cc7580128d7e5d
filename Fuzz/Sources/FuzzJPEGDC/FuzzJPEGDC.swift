import FuzzSupport
import VignetteCodecs

/// libFuzzer target, differential: each input decoded at 1/8, 1/4 and 1/2 by Vignette's own JPEG
/// paths (`JPEGDC`: the DC-only entropy decoder and the DC-scans-only progressive stream at 1/8,
/// the reduced-scale decoders, sequential and progressive, at 1/4 and 1/2) and by libjpeg-turbo
/// (`tjDecompressToYUVPlanes`). The samples must be identical, or the own path must have declined;
/// at 1/8 a progressive file that libjpeg-turbo decodes with a warning about its AC scans' data may
/// be decoded from its DC scans (the known gap, see `JPEGDC`). Anything else traps. Sources above
/// 16 megapixels are skipped, so that libjpeg-turbo's whole-image buffers stay within the fuzzer's
/// memory limits. The input's first 512 bytes, read as two blocks of coefficients and their two
/// quantisation tables, must also give the same samples from the reduced-scale decoder's AVX2 IDCT
/// and from its scalar twin (`JPEGDC.idctAgrees`), at 1/4 and 1/2.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDC(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzInput.data(bytes, count)
    if count >= 512, let bytes {
        let words = (0..<256).map { UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8 }
        let a = words[0..<64].map { Int16(bitPattern: $0) }, b = words[64..<128].map { Int16(bitPattern: $0) }
        for denominator in [4, 2] where JPEGDC.idctAgrees(a, b, Array(words[128..<192]), Array(words[192..<256]), denominator: denominator) == false {
            fatalError("FuzzJPEGDC: the AVX2 reduced IDCT and its scalar twin differ at 1/\(denominator)")
        }
    }
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
