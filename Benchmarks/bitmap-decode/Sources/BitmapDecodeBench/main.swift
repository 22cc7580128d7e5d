import Foundation
import VignetteCodecs

// BitmapDecodeBench FILE SECONDS WARMUP [reuse]: FILE in memory decoded whole
// (`ImageDecoder.decode`, the pixels in memory) again and again, one at a time, for SECONDS after
// WARMUP seconds; one JSON line, as peers/benchloop.py prints (peers/pillow_decode.py is the same
// loop in Pillow). `reuse` keeps freed buffers for the next decode
// (`ImagingRuntime.keepFreedMemoryForReuse()`, as the batch command does), as Pillow's own block
// allocator does; without it, glibc's defaults (a server's). Run by Benchmarks/bitmap-decode.sh.
enum DecodeLoop {
    static func run(_ arguments: [String]) throws -> String {
        let reuse = arguments.count == 4 && arguments[3] == "reuse"
        if reuse { ImagingRuntime.keepFreedMemoryForReuse() }
        guard arguments.count == 3 || reuse, let seconds = Double(arguments[1]), let warmup = Double(arguments[2]), seconds > 0, warmup >= 0 else {
            throw ImagingError(.invalidArgument, "usage: BitmapDecodeBench FILE SECONDS WARMUP [reuse]")
        }
        let input = arguments[0]
        let data = try Data(contentsOf: URL(fileURLWithPath: input))
        let decoder = ImageDecoder(limits: .unlimited)
        var last = try decoder.decode(data)
        let clock = ContinuousClock()
        let warm = clock.now.advanced(by: .seconds(warmup))
        while clock.now < warm { last = try decoder.decode(data) }
        var operations = 0
        let start = clock.now
        let deadline = start.advanced(by: .seconds(seconds))
        while clock.now < deadline {
            last = try decoder.decode(data)
            operations += 1
        }
        let elapsed = start.duration(to: clock.now)
        let spent = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = (Double(operations) / spent * 1000).rounded() / 1000
        return #"{"tool": "\#(reuse ? "Vignette reuse" : "Vignette")", "ops_per_sec": \#(rate), "ops": \#(operations), "seconds": \#(spent), "# +
            #""width": \#(last.width), "height": \#(last.height), "bands": \#(last.bands)}"#
    }
}

do {
    print(try DecodeLoop.run(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("BitmapDecodeBench: \(error)\n".utf8))
    exit(1)
}
