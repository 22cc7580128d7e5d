/// Bounds-checked little-endian reads over bytes that stay alive for the reader's life (a
/// `withUnsafeBytes` closure): every read past the end gives nil, never an over-read.
struct LittleEndianBytes {
    let raw: UnsafeRawBufferPointer

    var count: Int { raw.count }

    /// Whether `length` bytes from `offset` are inside the bytes (false for negative values).
    func contains(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= raw.count && length <= raw.count - offset
    }

    func u8(_ offset: Int) -> Int? {
        contains(offset, 1) ? Int(raw[offset]) : nil
    }

    func u16(_ offset: Int) -> Int? {
        contains(offset, 2) ? Int(raw[offset]) | Int(raw[offset + 1]) << 8 : nil
    }

    func u32(_ offset: Int) -> UInt32? {
        guard contains(offset, 4) else { return nil }
        return UInt32(raw[offset]) | UInt32(raw[offset + 1]) << 8 | UInt32(raw[offset + 2]) << 16 | UInt32(raw[offset + 3]) << 24
    }

    /// A signed 32-bit field.
    func i32(_ offset: Int) -> Int? {
        u32(offset).map { Int(Int32(bitPattern: $0)) }
    }
}
