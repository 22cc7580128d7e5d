#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import VignetteCodecs

/// libFuzzer target: video posters through FFmpeg (`ImageDecoder.probe`, then `Thumbnailer` at a
/// 64-pixel box). The first byte picks the second asked for (0: the first frame, else byte / 8
/// seconds); the rest is the file. Any bytes must give a thumbnail or an `ImagingError` within the
/// limits, never a crash, a hang or an allocation over them. Seeds: Fuzz/make-video-seeds.sh.
/// Without the Video trait, videos are refused at once and the target tests only the sniffing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVideo(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput.data(bytes, count)
    guard let first = input.first else { return 0 }
    let data = input.dropFirst()
    var limits = DecodingLimits.untrusted
    limits.maxFrames = 300
    limits.maxPixels = 4_000_000
    limits.maxRenderSeconds = 3
    _ = try? ImageDecoder(limits: limits).probe(Data(data))
    var options = ThumbnailOptions(size: 64)
    options.videoSecond = first == 0 ? nil : Double(first) / 8
    _ = try? Thumbnailer(options: options, limits: limits).thumbnail(Data(data))
    return 0
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzVideo) }
}
