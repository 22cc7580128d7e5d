/// Reads bit fields from a byte array, as codec headers are written (most significant first, or
/// least significant first as JPEG XL packs them): fixed-width
/// fields (`bits`), Exp-Golomb codes (`unsignedExpGolomb`, HEVC's ue(v)) and AV1's `uvlc()`.
/// Reading past the end gives nil, never a trap.
struct BitReader {
    /// How bits are packed: each byte's most significant bit first, the first bit read the most
    /// significant of the value (HEVC, AV1), or least significant first both ways (JPEG XL).
    enum Order { case mostSignificantFirst, leastSignificantFirst }

    private let bytes: [UInt8]
    private let order: Order
    private var position = 0

    init(_ bytes: [UInt8], order: Order = .mostSignificantFirst) {
        self.bytes = bytes
        self.order = order
    }

    /// The next `count` (0…64) bits as an unsigned number.
    mutating func bits(_ count: Int) -> UInt64? {
        guard count >= 0, count <= 64, position + count <= bytes.count * 8 else { return nil }
        var value: UInt64 = 0
        for index in 0..<count {
            switch order {
            case .mostSignificantFirst:
                let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
                value = value << 1 | UInt64(bit)
            case .leastSignificantFirst:
                let bit = (bytes[position >> 3] >> UInt8(position & 7)) & 1
                value |= UInt64(bit) << UInt64(index)
            }
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
