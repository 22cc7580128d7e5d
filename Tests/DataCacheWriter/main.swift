// DataCacheWriter <dir> <count> [size]
//
// A child process for the disk-cache crash test: stores `count` entries with keys `key-<i>` into a
// `DataCache` at <dir>, flushing every `batch` entries and printing `flushed <n>` after each flush,
// so that the test can SIGKILL it in the middle of writes and then check that no entry it left
// behind is truncated.
//
// Every entry verifies itself (DataCacheTests has its own copy of the check):
//   bytes 0..<8    "VGNTDCW1"
//   bytes 8..<16   i, UInt64 little-endian
//   bytes 16..<24  the entry's total length, UInt64 little-endian
//   bytes 24...    the first length - 24 bytes of a fixed xorshift64 stream (seed 0x9E3779B97F4A7C15,
//                  each 64-bit state written little-endian)
// Lengths vary with i between size/2 and size (default 65536).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Vignette

let batch = 4

func say(_ line: String, to descriptor: Int32) {
    // Straight to the descriptor: stdout is a pipe, and buffered output would die with the process.
    var bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return write(descriptor, base + written, buffer.count - written)
        }
        if count > 0 { written += count } else if errno != EINTR { return }
    }
}

/// The bytes after the header, shared by all entries (cut to each one's length): made once, so that
/// the writer spends its time writing rather than making data, and a kill tends to land mid-write.
func pattern(count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for offset in stride(from: 0, to: count, by: 8) {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        for shift in 0..<min(8, count - offset) {
            bytes[offset + shift] = UInt8(truncatingIfNeeded: state >> (8 * UInt64(shift)))
        }
    }
    return bytes
}

func entry(index: Int, size: Int, pattern: [UInt8]) -> Data {
    let half = max(size / 2, 24)
    let length = half + (index &* 7919) % (max(size, 24) - half + 1)
    var data = Data(capacity: length)
    data.append(contentsOf: "VGNTDCW1".utf8)
    withUnsafeBytes(of: UInt64(index).littleEndian) { data.append(contentsOf: $0) }
    withUnsafeBytes(of: UInt64(length).littleEndian) { data.append(contentsOf: $0) }
    // One memcpy: an element-wise append would make building entries, not writing them, the
    // writer's main cost.
    pattern.withUnsafeBufferPointer { data.append(UnsafeBufferPointer(rebasing: $0[0..<(length - 24)])) }
    return data
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, arguments.count <= 4, let count = Int(arguments[2]), count >= 0,
      let size = arguments.count == 4 ? Int(arguments[3]) : 65536, size > 0
else {
    say("usage: DataCacheWriter <dir> <count> [size]", to: 2)
    exit(2)
}

do {
    let cache = try DataCache(path: arguments[1])
    let bytes = pattern(count: max(size, 24))
    for index in 0..<count {
        cache.storeData(entry(index: index, size: size, pattern: bytes), for: "key-\(index)")
        if (index + 1) % batch == 0 || index == count - 1 {
            await cache.flush()
            say("flushed \(index + 1)", to: 1)
        }
    }
} catch {
    say("DataCacheWriter: \(error)", to: 2)
    exit(1)
}
