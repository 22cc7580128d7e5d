/// The rows of the common BMP layouts, 24-bit BGR and 32-bit BGRX or BGRA, turned into RGB or
/// RGBA in whole words (unaligned loads and stores, little-endian as BMP is) rather than byte by
/// byte: BGRX to RGB eight pixels a 64-bit step, BGR to RGB four a 32-bit step, BGRA to RGBA one
/// pixel a word. These are most BMP files (Benchmarks/bitmap-decode.sh); the pixels left at a
/// row's end go byte by byte.
enum BMPByteOrderRows {
    /// A BGR pixel in the low 24 bits of a word, as RGB in the low 24 bits.
    @inline(__always) private static func rgb(_ bgr: UInt32) -> UInt32 { bgr.byteSwapped >> 8 }

    @inline(__always) private static func load(_ pointer: UnsafeRawPointer, _ word: Int) -> UInt32 {
        UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: word * 4, as: UInt32.self))
    }

    @inline(__always) private static func store(_ value: UInt32, _ pointer: UnsafeMutableRawPointer, _ word: Int) {
        pointer.storeBytes(of: value.littleEndian, toByteOffset: word * 4, as: UInt32.self)
    }

    /// Four RGB pixels (each in a word's low 24 bits) packed into three words.
    @inline(__always) private static func pack(_ q0: UInt32, _ q1: UInt32, _ q2: UInt32, _ q3: UInt32, into d: UnsafeMutableRawPointer) {
        store(q0 | q1 << 24, d, 0)
        store(q1 >> 8 | q2 << 16, d, 1)
        store(q2 >> 16 | q3 << 8, d, 2)
    }

    /// `width` 24-bit BGR pixels into RGB.
    static func bgrToRGB(_ source: UnsafePointer<UInt8>, _ line: UnsafeMutablePointer<UInt8>, width: Int) {
        var s = UnsafeRawPointer(source), d = UnsafeMutableRawPointer(line), left = width
        while left >= 4 {
            let a0 = load(s, 0), a1 = load(s, 1), a2 = load(s, 2)
            pack(rgb(a0 & 0xFF_FFFF), rgb(a0 >> 24 | (a1 & 0xFFFF) << 8), rgb(a1 >> 16 | (a2 & 0xFF) << 16), rgb(a2 >> 8), into: d)
            s += 12
            d += 12
            left -= 4
        }
        copyBytes(s, d, count: left, step: 3, bands: 3, alpha: false)
    }

    /// `width` 32-bit BGRX pixels into RGB (the fourth byte dropped): eight a step in 64-bit
    /// words, then four in 32-bit ones.
    static func bgrxToRGB(_ source: UnsafePointer<UInt8>, _ line: UnsafeMutablePointer<UInt8>, width: Int) {
        var s = UnsafeRawPointer(source), d = UnsafeMutableRawPointer(line), left = width
        while left >= 8 {
            // A word of two BGRX pixels, byte-swapped: the second pixel's RGB in bits 8–31, the first's in 40–63.
            @inline(__always) func pair(_ word: Int) -> (UInt64, UInt64) {
                let swapped = UInt64(littleEndian: s.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)).byteSwapped
                return (swapped >> 40, swapped >> 8 & 0xFF_FFFF)
            }
            let (q0, q1) = pair(0), (q2, q3) = pair(1), (q4, q5) = pair(2), (q6, q7) = pair(3)
            d.storeBytes(of: (q0 | q1 << 24 | q2 << 48).littleEndian, as: UInt64.self)
            d.storeBytes(of: (q2 >> 16 | q3 << 8 | q4 << 32 | q5 << 56).littleEndian, toByteOffset: 8, as: UInt64.self)
            d.storeBytes(of: (q5 >> 8 | q6 << 16 | q7 << 40).littleEndian, toByteOffset: 16, as: UInt64.self)
            s += 32
            d += 24
            left -= 8
        }
        while left >= 4 {
            pack(rgb(load(s, 0)), rgb(load(s, 1)), rgb(load(s, 2)), rgb(load(s, 3)), into: d)
            s += 16
            d += 12
            left -= 4
        }
        copyBytes(s, d, count: left, step: 4, bands: 3, alpha: false)
    }

    /// `width` 24-bit BGR or 32-bit BGRX/BGRA pixels (`step` 3 or 4 bytes) into RGBA: the fourth
    /// byte as alpha when `alpha`, else 255.
    static func toRGBA(_ source: UnsafePointer<UInt8>, _ line: UnsafeMutablePointer<UInt8>, width: Int, step: Int, alpha: Bool) {
        var s = UnsafeRawPointer(source), d = UnsafeMutableRawPointer(line), left = width
        if step == 4 {
            let opaque: UInt32 = alpha ? 0 : 0xFF00_0000
            while left >= 1 {
                let p = load(s, 0)
                // Bytes 0 and 2 swapped: BGRA to RGBA.
                store(p & 0xFF00_FF00 | p >> 16 & 0xFF | (p & 0xFF) << 16 | opaque, d, 0)
                s += 4
                d += 4
                left -= 1
            }
            return
        }
        copyBytes(s, d, count: left, step: step, bands: 4, alpha: alpha)
    }

    /// The byte-by-byte loop: `count` pixels of `step` bytes, BGR first, into `bands` 3 or 4.
    @inline(__always) private static func copyBytes(
        _ source: UnsafeRawPointer, _ line: UnsafeMutableRawPointer, count: Int, step: Int, bands: Int, alpha: Bool
    ) {
        let s = source.assumingMemoryBound(to: UInt8.self), d = line.assumingMemoryBound(to: UInt8.self)
        for x in 0..<count {
            let from = s + x * step, to = d + x * bands
            (to[0], to[1], to[2]) = (from[2], from[1], from[0])
            if bands == 4 { to[3] = alpha ? from[3] : 255 }
        }
    }
}
