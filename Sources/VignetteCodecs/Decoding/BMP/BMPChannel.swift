/// One colour channel of a bit-field pixel: its mask, and the 8-bit value of each masked value
/// (scaled as `value × 255 / max`, rounded), from a table when the channel has 16 bits or fewer,
/// else by dropping the low bits.
struct BMPChannel {
    let mask: UInt32
    let shift: UInt32
    /// Bits from the mask's lowest set bit to its highest (0 for an absent channel).
    let bits: Int
    private let table: [UInt8]

    init(mask: UInt32) {
        self.mask = mask
        guard mask != 0 else {
            (shift, bits, table) = (0, 0, [])
            return
        }
        shift = UInt32(mask.trailingZeroBitCount)
        bits = 32 - (mask >> shift).leadingZeroBitCount
        if bits <= 16 {
            let max = (1 << bits) - 1
            table = (0...max).map { UInt8(($0 * 255 + max / 2) / max) }
        } else {
            table = []
        }
    }

    /// The channel's 8-bit value in `pixel` (0 for an absent channel).
    @inline(__always) func value(_ pixel: UInt32) -> UInt8 {
        let raw = (pixel & mask) >> shift
        if bits <= 16 { return bits == 0 ? 0 : table[Int(raw)] }
        return UInt8(truncatingIfNeeded: raw >> UInt32(bits - 8))
    }
}
