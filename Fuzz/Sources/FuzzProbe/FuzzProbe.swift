import FuzzSupport
import VignetteCodecs

/// libFuzzer target: header reads (`ImageDecoder.probe`) with the default limits. Any bytes must
/// give an `ImageInfo` or an `ImagingError`, never a crash, a hang or an allocation over the limits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProbe(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = try? ImageDecoder().probe(FuzzInput.data(bytes, count))
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzProbe) }
}
