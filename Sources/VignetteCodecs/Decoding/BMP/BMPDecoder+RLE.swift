extension BMPDecoder {
    struct RLEWalk {
        /// Pixels no run wrote (transparent).
        var skipped: Int
    }

    /// Walks the RLE8 or RLE4 data once, writing each run's colours into `out` (top row first,
    /// `bands` a pixel, alpha 255) when it is given, only checking it when not. Every pixel is
    /// written at most once (the position only moves forward), so the pixels written are the
    /// runs' lengths added up. Throws for a run past its row or past the image, an index past the
    /// palette (unless `failOn` is `.none`: black) and data that ends before the image does
    /// (unless `.none`: the rest transparent).
    func walkRLE(into out: UnsafeMutablePointer<UInt8>?, bands: Int) throws(ImagingError) -> RLEWalk {
        let width = header.width, height = header.height
        let four = header.compression == .rle4
        let palette = header.palette
        var position = header.pixelOffset
        var x = 0, y = 0
        var written = 0
        var badIndex = false
        var ended = false

        // Writes `count` pixels at (x, y) of row y counted from the bottom; `index(i)` gives each one's colour.
        func put(_ count: Int, _ index: (Int) -> Int) throws(ImagingError) {
            guard y < height else { throw ImagingError(.corruptData, "BMP RLE data runs past the image's last row") }
            guard count <= width - x else { throw ImagingError(.corruptData, "BMP RLE run of \(count) pixels runs past the end of row \(y)") }
            for i in 0..<count {
                let value = index(i)
                if value >= palette.count { badIndex = true }
                if let out {
                    let d = out + ((height - 1 - y) * width + x + i) * bands
                    (d[0], d[1], d[2]) = value < palette.count ? palette[value] : (0, 0, 0)
                    if bands == 4 { d[3] = 255 }
                }
            }
            x += count
            written += count
        }

        walk: while let count = bytes.u8(position), let second = bytes.u8(position + 1) {
            position += 2
            if count > 0 {
                // An encoded run: one index repeated, or two alternating for RLE4.
                try put(count) { i in four ? (i & 1 == 0 ? second >> 4 : second & 0x0F) : second }
                continue
            }
            switch second {
            case 0:
                x = 0
                y += 1
            case 1:
                ended = true
            case 2:
                guard let dx = bytes.u8(position), let dy = bytes.u8(position + 1) else { break walk }
                position += 2
                x += dx
                y += dy
                guard x <= width, y <= height else { throw ImagingError(.corruptData, "BMP RLE delta moves past the image") }
            default:
                // An absolute run of `second` indices, padded to a whole 16-bit word.
                let length = four ? (second + 1) / 2 : second
                guard bytes.contains(position, length) else { break walk }
                let start = position
                try put(second) { i in
                    let byte = bytes.u8(start + (four ? i / 2 : i)) ?? 0
                    return four ? (i & 1 == 0 ? byte >> 4 : byte & 0x0F) : byte
                }
                position += (length + 1) & ~1
            }
            if ended || position > bytes.count { break }
        }
        if !ended, y < height, failOn != .none {
            throw ImagingError(.truncatedData, "BMP RLE data ends before the image does (at row \(y) of \(height))")
        }
        if badIndex, failOn != .none {
            throw ImagingError(.corruptData, "BMP pixels use colours past its palette of \(palette.count)")
        }
        return RLEWalk(skipped: Int.saturating(width, height) - written)
    }
}
