import FuzzSupport
import VignetteCodecs

/// libFuzzer target: the progressive decoder (`ProgressiveDecoder`) fed growing prefixes of the
/// input, as a download would arrive, with the default limits and a minimum preview side.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProgressive(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = FuzzInput.data(bytes, count)
    let decoder = ProgressiveDecoder(minimumPreviewSide: count % 2 == 0 ? nil : 16)
    let step = max(1, data.count / 7)
    var length = min(data.count, 32)
    while length < data.count {
        _ = decoder.preview(from: data.prefix(length))
        length += step
    }
    _ = decoder.preview(from: data)
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzProgressive) }
}
