#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A fuzz target's entry: libFuzzer's `LLVMFuzzerTestOneInput` signature.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

#if FUZZING
/// libFuzzer's driver, for a `main` of our own (SwiftPM gives every executable one).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ target: FuzzTarget
) -> CInt
#endif

/// What the fuzz targets share: turning libFuzzer's buffer into `Data`, and the `main` that runs
/// libFuzzer (built with `-DFUZZING -sanitize=fuzzer`) or, in the normal build, replays the saved
/// inputs named on the command line through the target: `FuzzProbe crash-…` reproduces a finding.
public enum FuzzInput {
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    public static func main(_ target: FuzzTarget) {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, target))
        #else
        replay(CommandLine.arguments.dropFirst(), through: target)
        #endif
    }

    /// Runs `target` over each file named in `paths` and says how many it ran.
    public static func replay(_ paths: some Sequence<String>, through target: FuzzTarget) {
        var count = 0
        for path in paths {
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
                print("cannot read \(path)")
                continue
            }
            _ = data.withUnsafeBytes { raw in target(raw.bindMemory(to: UInt8.self).baseAddress, raw.count) }
            count += 1
        }
        print("replayed \(count) input(s)")
    }
}
