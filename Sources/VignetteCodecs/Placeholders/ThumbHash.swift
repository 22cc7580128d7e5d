#if canImport(Glibc)
import Glibc
#endif

/// ThumbHash (Evan Wallace's placeholder format): a ~25-byte hash of an image's colours, shape and
/// alpha that a client decodes into a blurry 32-px preview while the image loads. Written from the
/// published description: the image in LPQA (luminance, yellow–blue, red–green, alpha) composited
/// over its average colour, each channel's low DCT frequencies quantised to 4 bits, a 5- or 6-byte
/// header holding the DC terms, scales and the luminance grid (which carries the aspect ratio).
package enum ThumbHash {
    /// The hash of an RGBA image (`width` × `height`, at most 100 a side, `rgba` 4 bytes a pixel, not
    /// premultiplied). Throws `.invalidArgument` for a size out of range or a buffer that does not
    /// match it.
    public static func encode(width: Int, height: Int, rgba: [UInt8]) throws(ImagingError) -> [UInt8] {
        guard (1...100).contains(width), (1...100).contains(height), rgba.count == width * height * 4 else {
            throw ImagingError(.invalidArgument, "ThumbHash needs 1–100 px a side and 4 bytes a pixel, got \(width)x\(height), \(rgba.count) bytes")
        }
        let count = width * height
        // The average colour, weighted by alpha.
        var average = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
        for index in 0..<count {
            let alpha = Double(rgba[index * 4 + 3]) / 255
            average.r += alpha / 255 * Double(rgba[index * 4])
            average.g += alpha / 255 * Double(rgba[index * 4 + 1])
            average.b += alpha / 255 * Double(rgba[index * 4 + 2])
            average.a += alpha
        }
        if average.a > 0 {
            average.r /= average.a
            average.g /= average.a
            average.b /= average.a
        }
        let hasAlpha = average.a < Double(count)
        let luminanceLimit = hasAlpha ? 5.0 : 7.0  // fewer luminance terms when alpha needs room
        let longest = Double(max(width, height))
        let lx = max(1, Int((luminanceLimit * Double(width) / longest).rounded()))
        let ly = max(1, Int((luminanceLimit * Double(height) / longest).rounded()))
        var l = [Double](repeating: 0, count: count), p = l, q = l, a = l
        for index in 0..<count {
            let alpha = Double(rgba[index * 4 + 3]) / 255
            let r = average.r * (1 - alpha) + alpha / 255 * Double(rgba[index * 4])
            let g = average.g * (1 - alpha) + alpha / 255 * Double(rgba[index * 4 + 1])
            let b = average.b * (1 - alpha) + alpha / 255 * Double(rgba[index * 4 + 2])
            l[index] = (r + g + b) / 3
            p[index] = (r + g) / 2 - b
            q[index] = r - g
            a[index] = alpha
        }
        let lChannel = Channel(encoding: l, width: width, height: height, nx: max(3, lx), ny: max(3, ly))
        let pChannel = Channel(encoding: p, width: width, height: height, nx: 3, ny: 3)
        let qChannel = Channel(encoding: q, width: width, height: height, nx: 3, ny: 3)
        let aChannel = hasAlpha ? Channel(encoding: a, width: width, height: height, nx: 5, ny: 5) : nil

        let isLandscape = width > height
        let header24 = Int((63 * lChannel.dc).rounded()) | Int((31.5 + 31.5 * pChannel.dc).rounded()) << 6
            | Int((31.5 + 31.5 * qChannel.dc).rounded()) << 12 | Int((31 * lChannel.scale).rounded()) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 = (isLandscape ? ly : lx) | Int((63 * pChannel.scale).rounded()) << 3
            | Int((63 * qChannel.scale).rounded()) << 9 | (isLandscape ? 1 << 15 : 0)
        let acStart = hasAlpha ? 6 : 5
        let channels = [lChannel, pChannel, qChannel] + (aChannel.map { [$0] } ?? [])
        let acCount = channels.reduce(0) { $0 + $1.ac.count }
        var hash = [UInt8](repeating: 0, count: acStart + (acCount + 1) / 2)
        hash[0] = UInt8(header24 & 255)
        hash[1] = UInt8(header24 >> 8 & 255)
        hash[2] = UInt8(header24 >> 16 & 255)
        hash[3] = UInt8(header16 & 255)
        hash[4] = UInt8(header16 >> 8 & 255)
        if let aChannel {
            hash[5] = UInt8(Int((15 * aChannel.dc).rounded()) | Int((15 * aChannel.scale).rounded()) << 4)
        }
        var acIndex = 0
        for channel in channels {
            for value in channel.ac {
                hash[acStart + acIndex >> 1] |= UInt8(Int((15 * value).rounded())) << ((acIndex & 1) << 2)
                acIndex += 1
            }
        }
        return hash
    }

    /// The preview a hash describes: RGBA, not premultiplied, 32 px on its long side with the
    /// hash's approximate aspect ratio. Throws `.invalidArgument` for bytes too short to be one.
    public static func decode(_ hash: [UInt8]) throws(ImagingError) -> PixelBuffer {
        guard hash.count >= 5 else { throw ImagingError(.invalidArgument, "a ThumbHash has at least 5 bytes, got \(hash.count)") }
        let header24 = Int(hash[0]) | Int(hash[1]) << 8 | Int(hash[2]) << 16
        let header16 = Int(hash[3]) | Int(hash[4]) << 8
        let lDC = Double(header24 & 63) / 63
        let pDC = Double(header24 >> 6 & 63) / 31.5 - 1
        let qDC = Double(header24 >> 12 & 63) / 31.5 - 1
        let lScale = Double(header24 >> 18 & 31) / 31
        let hasAlpha = header24 >> 23 != 0
        let pScale = Double(header16 >> 3 & 63) / 63
        let qScale = Double(header16 >> 9 & 63) / 63
        let isLandscape = header16 >> 15 != 0
        let lx = max(3, isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7)
        let ly = max(3, isLandscape ? header16 & 7 : (hasAlpha ? 5 : 7))
        guard !hasAlpha || hash.count >= 6 else { throw ImagingError(.invalidArgument, "a ThumbHash with alpha has at least 6 bytes") }
        let aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
        let aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0

        var acIndex = 0
        let acStart = hasAlpha ? 6 : 5
        func terms(_ nx: Int, _ ny: Int, _ scale: Double) throws(ImagingError) -> [Double] {
            var values: [Double] = []
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    let byte = acStart + acIndex >> 1
                    guard byte < hash.count else { throw ImagingError(.invalidArgument, "the ThumbHash is cut short") }
                    let nibble = hash[byte] >> ((acIndex & 1) << 2) & 15
                    values.append((Double(nibble) / 7.5 - 1) * scale)
                    acIndex += 1
                    cx += 1
                }
            }
            return values
        }
        let lAC = try terms(lx, ly, lScale)
        // Saturation boosted 1.25× to make up for the quantisation, as the format specifies.
        let pAC = try terms(3, 3, pScale * 1.25)
        let qAC = try terms(3, 3, qScale * 1.25)
        let aAC = hasAlpha ? try terms(5, 5, aScale) : []

        let ratio = aspectRatio(header16: header16, hasAlpha: hasAlpha)
        let width = Int((ratio > 1 ? 32 : 32 * ratio).rounded())
        let height = Int((ratio > 1 ? 32 / ratio : 32).rounded())
        let cxStop = max(lx, hasAlpha ? 5 : 3), cyStop = max(ly, hasAlpha ? 5 : 3)
        var fx = [Double](repeating: 0, count: cxStop), fy = [Double](repeating: 0, count: cyStop)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for cy in 0..<cyStop { fy[cy] = cos(Double.pi / Double(height) * (Double(y) + 0.5) * Double(cy)) }
            for x in 0..<width {
                for cx in 0..<cxStop { fx[cx] = cos(Double.pi / Double(width) * (Double(x) + 0.5) * Double(cx)) }
                var l = lDC, p = pDC, q = qDC, a = aDC
                var j = 0
                for cy in 0..<ly {
                    var cx = cy > 0 ? 0 : 1
                    while cx * ly < lx * (ly - cy) {
                        l += lAC[j] * fx[cx] * fy[cy] * 2
                        j += 1
                        cx += 1
                    }
                }
                j = 0
                for cy in 0..<3 {
                    for cx in (cy > 0 ? 0 : 1)..<(3 - cy) {
                        let f = fx[cx] * fy[cy] * 2
                        p += pAC[j] * f
                        q += qAC[j] * f
                        j += 1
                    }
                }
                if hasAlpha {
                    j = 0
                    for cy in 0..<5 {
                        for cx in (cy > 0 ? 0 : 1)..<(5 - cy) {
                            a += aAC[j] * fx[cx] * fy[cy] * 2
                            j += 1
                        }
                    }
                }
                let b = l - 2.0 / 3.0 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                let index = (y * width + x) * 4
                rgba[index] = byte(r)
                rgba[index + 1] = byte(g)
                rgba[index + 2] = byte(b)
                rgba[index + 3] = byte(a)
            }
        }
        return PixelBuffer(width: width, height: height, bands: 4, bytes: rgba)
    }

    /// The hash's approximate width / height, from its luminance grid.
    static func aspectRatio(header16: Int, hasAlpha: Bool) -> Double {
        let isLandscape = header16 >> 15 != 0
        let lx = isLandscape ? (hasAlpha ? 5 : 7) : header16 & 7
        let ly = isLandscape ? header16 & 7 : (hasAlpha ? 5 : 7)
        return ly > 0 && lx > 0 ? Double(lx) / Double(ly) : 1
    }

    private static func byte(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, (255 * min(1, value)).rounded())))
    }

    /// One channel's DCT: the constant term, the varying terms mapped to 0…1 around 0.5, and their
    /// largest magnitude.
    private struct Channel {
        var dc = 0.0
        var ac: [Double] = []
        var scale = 0.0

        init(encoding values: [Double], width: Int, height: Int, nx: Int, ny: Int) {
            var fx = [Double](repeating: 0, count: width)
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    for x in 0..<width { fx[x] = cos(Double.pi / Double(width) * Double(cx) * (Double(x) + 0.5)) }
                    var f = 0.0
                    for y in 0..<height {
                        let fy = cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5))
                        for x in 0..<width { f += values[x + y * width] * fx[x] * fy }
                    }
                    f /= Double(width * height)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        }
    }
}
