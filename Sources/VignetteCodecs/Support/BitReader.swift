/// Reads big-endian bit fields from a byte array, as codec headers are written: fixed-width
/// fields (`bits`), Exp-Golomb codes (`unsignedExpGolomb`, HEVC's ue(v)) and AV1's `uvlc()`.
/// Reading past the end gives nil, never a trap.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next `count` (0…64) bits as an unsigned number.
    mutating func bits(_ count: Int) -> UInt64? {
        guard count >= 0, count <= 64, position + count <= bytes.count * 8 else { return nil }
        var value: UInt64 = 0
        for _ in 0..<count {
            let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | UInt64(bit)
            position += 1
        }
        return value
    }

    mutating func flag() -> Bool? { bits(1).map { $0 == 1 } }

    mutating func skip(_ count: Int) -> Bool { bits(min(count, 64)) != nil && (count <= 64 || skip(count - 64)) }

    /// ue(v): Exp-Golomb, as HEVC's parameter sets use.
    mutating func unsignedExpGolomb() -> UInt64? {
        var zeros = 0
        while true {
            guard let bit = bits(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        guard let rest = bits(zeros) else { return nil }
        return (UInt64(1) << UInt64(zeros)) - 1 + rest
    }

    /// AV1's uvlc().
    mutating func uvlc() -> UInt64? {
        var zeros = 0
        while true {
            guard let bit = bits(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 64 { return nil }
        }
        if zeros >= 32 { return UInt64(UInt32.max) }
        guard let rest = bits(zeros) else { return nil }
        return rest + (UInt64(1) << UInt64(zeros)) - 1
    }
}
