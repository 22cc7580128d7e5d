#if canImport(Glibc)
import Glibc
#endif

/// BlurHash (Wolt's placeholder format): a short base-83 string of an image's low-frequency colour
/// components, decoded by a client into a blurry preview. Written from the published description:
/// a size flag (components in x and y, 1–9 each), the quantised maximum AC value, the DC colour
/// as sRGB, then each AC component's red, green and blue quantised to 19 levels through a
/// square-root curve; the components are cosine transforms of the linear-light image.
package enum BlurHash {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    /// The hash of an image's pixels (`bands` 3 or 4, alpha ignored), with `componentsX` ×
    /// `componentsY` components (1–9 each). Its length is 4 + 2 × componentsX × componentsY.
    public static func encode(_ pixels: PixelBuffer, componentsX: Int = 4, componentsY: Int = 3) throws(ImagingError) -> String {
        guard (1...9).contains(componentsX), (1...9).contains(componentsY) else {
            throw ImagingError(.invalidArgument, "BlurHash components must be 1–9 each, got \(componentsX)x\(componentsY)")
        }
        guard pixels.bands >= 3, pixels.width > 0, pixels.height > 0, pixels.bytes.count == pixels.width * pixels.height * pixels.bands else {
            throw ImagingError(.invalidArgument, "BlurHash needs RGB or RGBA pixels")
        }
        let (width, height, bands) = (pixels.width, pixels.height, pixels.bands)
        let linear = pixels.bytes.map { linearFromSRGB($0) }
        var factors: [(Double, Double, Double)] = []
        for j in 0..<componentsY {
            for i in 0..<componentsX {
                let normalisation = i == 0 && j == 0 ? 1.0 : 2.0
                var r = 0.0, g = 0.0, b = 0.0
                for y in 0..<height {
                    let fy = cos(Double.pi * Double(j) * Double(y) / Double(height))
                    for x in 0..<width {
                        let basis = fy * cos(Double.pi * Double(i) * Double(x) / Double(width))
                        let index = (y * width + x) * bands
                        r += basis * linear[index]
                        g += basis * linear[index + 1]
                        b += basis * linear[index + 2]
                    }
                }
                let scale = normalisation / Double(width * height)
                factors.append((r * scale, g * scale, b * scale))
            }
        }
        var hash = base83(componentsX - 1 + (componentsY - 1) * 9, length: 1)
        let ac = factors.dropFirst()
        var maximum = 1.0
        if ac.isEmpty {
            hash += base83(0, length: 1)
        } else {
            let actual = ac.map { max(abs($0.0), abs($0.1), abs($0.2)) }.max() ?? 0
            let quantised = Int(max(0, min(82, (actual * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            hash += base83(quantised, length: 1)
        }
        let dc = factors[0]
        hash += base83(Int(sRGBFromLinear(dc.0)) << 16 | Int(sRGBFromLinear(dc.1)) << 8 | Int(sRGBFromLinear(dc.2)), length: 4)
        for factor in ac {
            func quantise(_ value: Double) -> Int {
                Int(max(0, min(18, (signedPower(value / maximum, 0.5) * 9 + 9.5).rounded(.down))))
            }
            hash += base83(quantise(factor.0) * 19 * 19 + quantise(factor.1) * 19 + quantise(factor.2), length: 2)
        }
        return hash
    }

    /// The preview a hash describes, as `width` × `height` RGB pixels (1–1000 a side); `punch`
    /// scales the contrast of the AC components (1 as encoded). Throws `.invalidArgument` for a
    /// string that is not a BlurHash (a wrong length or a character outside base 83).
    public static func decode(_ hash: String, width: Int = 32, height: Int = 32, punch: Double = 1) throws(ImagingError) -> PixelBuffer {
        let digits = Array(hash.utf8)
        guard (1...1000).contains(width), (1...1000).contains(height), digits.count >= 6 else {
            throw ImagingError(.invalidArgument, "not a BlurHash, or a size out of 1–1000")
        }
        func value(_ range: Range<Int>) throws(ImagingError) -> Int {
            var result = 0
            for digit in digits[range] {
                guard let position = alphabet.firstIndex(of: digit) else { throw ImagingError(.invalidArgument, "not a base-83 character in the BlurHash") }
                result = result * 83 + position
            }
            return result
        }
        let flag = try value(0..<1)
        let (componentsX, componentsY) = (flag % 9 + 1, flag / 9 + 1)
        guard digits.count == 4 + 2 * componentsX * componentsY else {
            throw ImagingError(.invalidArgument, "a BlurHash of \(componentsX)x\(componentsY) components has \(4 + 2 * componentsX * componentsY) characters, got \(digits.count)")
        }
        let maximum = Double(try value(1..<2) + 1) / 166 * punch
        let dc = try value(2..<6)
        var colours = [(linearFromSRGB(UInt8(dc >> 16 & 255)), linearFromSRGB(UInt8(dc >> 8 & 255)), linearFromSRGB(UInt8(dc & 255)))]
        for index in 1..<(componentsX * componentsY) {
            let packed = try value((4 + index * 2)..<(6 + index * 2))
            func component(_ quantised: Int) -> Double { signedPower(Double(quantised - 9) / 9, 2) * maximum }
            colours.append((component(packed / (19 * 19)), component(packed / 19 % 19), component(packed % 19)))
        }
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var r = 0.0, g = 0.0, b = 0.0
                for j in 0..<componentsY {
                    let fy = cos(Double.pi * Double(y) * Double(j) / Double(height))
                    for i in 0..<componentsX {
                        let basis = cos(Double.pi * Double(x) * Double(i) / Double(width)) * fy
                        let colour = colours[i + j * componentsX]
                        r += colour.0 * basis
                        g += colour.1 * basis
                        b += colour.2 * basis
                    }
                }
                let index = (y * width + x) * 3
                bytes[index] = sRGBFromLinear(r)
                bytes[index + 1] = sRGBFromLinear(g)
                bytes[index + 2] = sRGBFromLinear(b)
            }
        }
        return PixelBuffer(width: width, height: height, bands: 3, bytes: bytes)
    }

    static func linearFromSRGB(_ value: UInt8) -> Double {
        let v = Double(value) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    static func sRGBFromLinear(_ value: Double) -> UInt8 {
        let v = max(0, min(1, value))
        let encoded = v <= 0.0031308 ? v * 12.92 * 255 + 0.5 : (1.055 * pow(v, 1 / 2.4) - 0.055) * 255 + 0.5
        return UInt8(max(0, min(255, encoded.rounded(.down))))
    }

    private static func signedPower(_ value: Double, _ exponent: Double) -> Double {
        value < 0 ? -pow(-value, exponent) : pow(value, exponent)
    }

    private static func base83(_ value: Int, length: Int) -> String {
        var characters: [UInt8] = []
        for position in 1...length {
            var divisor = 1
            for _ in 0..<(length - position) { divisor *= 83 }
            characters.append(alphabet[value / divisor % 83])
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
