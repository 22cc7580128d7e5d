/// Colour facts of an image's pixels, for imgproxy's `/info`: the average colour, a palette
/// (median cut) and the six dominant colours of Android's Palette / node-vibrant (vibrant, light
/// vibrant, dark vibrant, muted, light muted, dark muted). They work on 8-bit sRGB RGBA pixels
/// (`Image.pixels()`), usually of the image reduced to a small size first.
package enum ColourStatistics {
    /// An RGBA colour, 0–255 a channel.
    package struct Colour: Sendable, Hashable {
        /// Red, green, blue and alpha, 0–255.
        public var r: Int, g: Int, b: Int, a: Int
        /// A colour of these channels, opaque unless `a` says otherwise.
        public init(r: Int, g: Int, b: Int, a: Int = 255) {
            (self.r, self.g, self.b, self.a) = (r, g, b, a)
        }
        /// `{"R":…,"G":…,"B":…,"A":…}`, or without A for the dominant colours.
        public func value(alpha: Bool = true) -> MetadataValue {
            var pairs: [(String, MetadataValue)] = [("R", .int(r)), ("G", .int(g)), ("B", .int(b))]
            if alpha { pairs.append(("A", .int(a))) }
            return .record(pairs)
        }
    }

    /// The mean of every channel, rounded; fully transparent pixels left out when
    /// `ignoringTransparent` (all zeros when no pixel is left).
    public static func average(_ pixels: PixelBuffer, ignoringTransparent: Bool) -> Colour {
        let rgba = PlaceholderPixels.rgba(pixels)
        var sums = [0, 0, 0, 0]
        var count = 0
        for index in stride(from: 0, to: rgba.count, by: 4) {
            if ignoringTransparent, rgba[index + 3] == 0 { continue }
            for channel in 0..<4 { sums[channel] += Int(rgba[index + channel]) }
            count += 1
        }
        guard count > 0 else { return Colour(r: 0, g: 0, b: 0, a: 0) }
        func mean(_ channel: Int) -> Int { (sums[channel] * 2 + count) / (2 * count) }
        return Colour(r: mean(0), g: mean(1), b: mean(2), a: mean(3))
    }

    /// A box of the median cut: pixels (packed RGBA) and its extent.
    struct Box {
        var pixels: [UInt32]
        var population: Int { pixels.count }

        func channel(_ pixel: UInt32, _ channel: Int) -> Int { Int((pixel >> (24 - 8 * UInt32(channel))) & 0xFF) }

        /// The squared distances of the pixels from their mean, summed over the four channels.
        var error: Int {
            var (sums, squares) = ([0, 0, 0, 0], [0, 0, 0, 0])
            for pixel in pixels {
                for c in 0..<4 {
                    let value = channel(pixel, c)
                    sums[c] += value
                    squares[c] += value * value
                }
            }
            return (0..<4).reduce(0) { $0 + squares[$1] - sums[$1] * sums[$1] / max(1, pixels.count) }
        }

        /// The two boxes whose errors add up to the least: along each channel, the pixels cut
        /// between two values where the halves' errors sum lowest (a variance-minimising median
        /// cut; a cut at the median splits a large uniform area). Each channel's candidates come
        /// from a histogram of its 256 values, so a split costs a pass a channel, not a sort.
        func split() -> (Box, Box)? {
            let n = pixels.count
            var best: (cost: Int, channel: Int, threshold: Int)?
            for c in 0..<4 {
                // Per value of channel c: the count, and the sums and squares of all four channels.
                var counts = [Int](repeating: 0, count: 256)
                var sums = [Int](repeating: 0, count: 256 * 4), squares = sums
                for pixel in pixels {
                    let bucket = channel(pixel, c)
                    counts[bucket] += 1
                    for k in 0..<4 {
                        let value = channel(pixel, k)
                        sums[bucket * 4 + k] += value
                        squares[bucket * 4 + k] += value * value
                    }
                }
                var (totalSums, totalSquares) = ([0, 0, 0, 0], [0, 0, 0, 0])
                for bucket in 0..<256 where counts[bucket] > 0 {
                    for k in 0..<4 {
                        totalSums[k] += sums[bucket * 4 + k]
                        totalSquares[k] += squares[bucket * 4 + k]
                    }
                }
                var left = 0
                var (leftSums, leftSquares) = ([0, 0, 0, 0], [0, 0, 0, 0])
                for bucket in 0..<256 where counts[bucket] > 0 {
                    left += counts[bucket]
                    for k in 0..<4 {
                        leftSums[k] += sums[bucket * 4 + k]
                        leftSquares[k] += squares[bucket * 4 + k]
                    }
                    guard left < n else { break }
                    var cost = 0
                    for k in 0..<4 {
                        let right = totalSums[k] - leftSums[k]
                        cost += leftSquares[k] - leftSums[k] * leftSums[k] / left
                        cost += (totalSquares[k] - leftSquares[k]) - right * right / (n - left)
                    }
                    if cost < best?.cost ?? .max { best = (cost, c, bucket) }
                }
            }
            guard let best else { return nil }
            var (low, high) = ([UInt32](), [UInt32]())
            for pixel in pixels {
                if channel(pixel, best.channel) <= best.threshold { low.append(pixel) } else { high.append(pixel) }
            }
            return (Box(pixels: low), Box(pixels: high))
        }

        var mean: Colour {
            var sums = [0, 0, 0, 0]
            for pixel in pixels { for c in 0..<4 { sums[c] += channel(pixel, c) } }
            let n = max(1, pixels.count)
            return Colour(r: (sums[0] * 2 + n) / (2 * n), g: (sums[1] * 2 + n) / (2 * n), b: (sums[2] * 2 + n) / (2 * n), a: (sums[3] * 2 + n) / (2 * n))
        }
    }

    /// Up to `count` colours by a variance-minimising median cut over the non-transparent pixels
    /// (the box with the most squared error split where its halves' errors sum lowest, each
    /// time), most common first.
    public static func palette(_ pixels: PixelBuffer, count: Int) -> [(colour: Colour, population: Int)] {
        let rgba = PlaceholderPixels.rgba(pixels)
        var packed: [UInt32] = []
        packed.reserveCapacity(rgba.count / 4)
        for index in stride(from: 0, to: rgba.count, by: 4) where rgba[index + 3] > 0 {
            packed.append(UInt32(rgba[index]) << 24 | UInt32(rgba[index + 1]) << 16 | UInt32(rgba[index + 2]) << 8 | UInt32(rgba[index + 3]))
        }
        guard !packed.isEmpty, count > 0 else { return [] }
        var boxes = [Box(pixels: packed)]
        var errors = [boxes[0].error]
        while boxes.count < count {
            // The box to split: the one whose pixels lie farthest from its mean, in all.
            guard let chosen = errors.indices.max(by: { errors[$0] < errors[$1] }), errors[chosen] > 0,
                let (low, high) = boxes[chosen].split()
            else { break }
            boxes[chosen] = low
            errors[chosen] = low.error
            boxes.append(high)
            errors.append(high.error)
        }
        return boxes.map { ($0.mean, $0.population) }.sorted { $0.1 > $1.1 }
    }

    /// The six dominant colours, by name (`vibrant`, `light_vibrant`, `dark_vibrant`, `muted`,
    /// `light_muted`, `dark_muted`), chosen as Android's Palette does from a 64-colour median-cut
    /// palette: each target has a luminance and saturation window and a score weighing closeness
    /// to its target saturation (×3), luminance (×6.5) and the swatch's population (×0.5); a
    /// swatch serves one target. A target with no swatch is nil, or, when `buildMissing`, made
    /// from a found one (vibrant ↔ its light/dark variants, muted likewise) by moving its
    /// luminance to the target's.
    public static func dominant(_ pixels: PixelBuffer, buildMissing: Bool) -> [(name: String, colour: Colour?)] {
        let swatches = palette(pixels, count: 64)
        let maxPopulation = Double(swatches.map(\.population).max() ?? 1)
        var used: Set<Int> = []
        var found: [String: Colour] = [:]
        for target in targets {
            var best: (index: Int, score: Double)?
            for (index, swatch) in swatches.enumerated() where !used.contains(index) {
                let (_, s, l) = hsl(swatch.colour)
                guard target.saturation.contains(s), target.luminance.contains(l) else { continue }
                let score = (1 - abs(s - target.saturationTarget)) * 3 + (1 - abs(l - target.luminanceTarget)) * 6.5
                    + Double(swatch.population) / maxPopulation * 0.5
                if score > (best?.score ?? -1) { best = (index, score) }
            }
            if let best {
                used.insert(best.index)
                found[target.name] = swatches[best.index].colour
            }
        }
        if buildMissing {
            for target in targets where found[target.name] == nil {
                let family = target.name.hasSuffix("vibrant") ? ["vibrant", "dark_vibrant", "light_vibrant"] : ["muted", "dark_muted", "light_muted"]
                guard let base = family.compactMap({ found[$0] }).first else { continue }
                let (h, s, _) = hsl(base)
                found[target.name] = colour(h: h, s: s, l: target.luminanceTarget)
            }
        }
        return targets.map { ($0.name, found[$0.name]) }
    }

    struct Target {
        let name: String
        let luminance: ClosedRange<Double>, luminanceTarget: Double
        let saturation: ClosedRange<Double>, saturationTarget: Double
    }

    /// Android Palette's default targets.
    static let targets = [
        Target(name: "vibrant", luminance: 0.3...0.7, luminanceTarget: 0.5, saturation: 0.35...1, saturationTarget: 1),
        Target(name: "light_vibrant", luminance: 0.55...1, luminanceTarget: 0.74, saturation: 0.35...1, saturationTarget: 1),
        Target(name: "dark_vibrant", luminance: 0...0.45, luminanceTarget: 0.26, saturation: 0.35...1, saturationTarget: 1),
        Target(name: "muted", luminance: 0.3...0.7, luminanceTarget: 0.5, saturation: 0...0.4, saturationTarget: 0.3),
        Target(name: "light_muted", luminance: 0.55...1, luminanceTarget: 0.74, saturation: 0...0.4, saturationTarget: 0.3),
        Target(name: "dark_muted", luminance: 0...0.45, luminanceTarget: 0.26, saturation: 0...0.4, saturationTarget: 0.3),
    ]

    /// Hue (0–1), saturation and lightness of a colour (HSL).
    static func hsl(_ colour: Colour) -> (Double, Double, Double) {
        let (r, g, b) = (Double(colour.r) / 255, Double(colour.g) / 255, Double(colour.b) / 255)
        let (high, low) = (max(r, g, b), min(r, g, b))
        let l = (high + low) / 2
        guard high != low else { return (0, 0, l) }
        let d = high - low
        let s = l > 0.5 ? d / (2 - high - low) : d / (high + low)
        var h: Double
        if high == r { h = (g - b) / d + (g < b ? 6 : 0) } else if high == g { h = (b - r) / d + 2 } else { h = (r - g) / d + 4 }
        h /= 6
        return (h, s, l)
    }

    /// The colour of HSL `h`, `s`, `l`.
    static func colour(h: Double, s: Double, l: Double) -> Colour {
        guard s > 0 else { let v = Int((l * 255).rounded()); return Colour(r: v, g: v, b: v) }
        let q = l < 0.5 ? l * (1 + s) : l + s - l * s
        let p = 2 * l - q
        func channel(_ t0: Double) -> Int {
            var t = t0
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            let v: Double = t < 1.0 / 6 ? p + (q - p) * 6 * t : t < 0.5 ? q : t < 2.0 / 3 ? p + (q - p) * (2.0 / 3 - t) * 6 : p
            return Int((v * 255).rounded())
        }
        return Colour(r: channel(h + 1.0 / 3), g: channel(h), b: channel(h - 1.0 / 3))
    }
}
