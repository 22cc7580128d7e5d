/// How one image will be decoded — at full size, or smaller through its loader's shrink-on-load —
/// and what that costs, decided from the header alone. Every path that decodes makes a plan and
/// checks its cost against `DecodingLimits` before asking libvips for pixels.
///
/// Shrink-on-load never makes a side smaller than what the target needs, nor smaller than one
/// pixel: libvips 8.14 rounds a JPEG shrink down (`width / shrink`), and a zero side trips an
/// assertion in `vips_image_generate` that aborts the process (a 1000×1 JPEG at 1/8).
struct DecodePlan {
    /// libvips loader options, e.g. "shrink=4" or "scale=0.25"; empty for a full-size decode.
    var loadOptions: [String]
    /// The size the loader will produce.
    var decoded: PixelSize
    /// The loader's scale: 1/shrink for JPEG, libwebp's scale for WebP, 1 for a full-size decode.
    var scale: Double
    var cost: DecodingCost

    /// A full-size decode of `header`, read from `source`.
    static func full(_ source: LoadedSource, _ header: Image) -> DecodePlan {
        let stored = PixelSize(width: header.width, height: header.height)
        return DecodePlan(
            loadOptions: [], decoded: stored, scale: 1,
            cost: .of(source: source, header: header, decoded: stored))
    }

    /// The cheapest decode whose output still covers `target` (in stored orientation): the largest
    /// JPEG DCT shrink (1/8, 1/4, 1/2) or the WebP scale that keeps both sides at least as long
    /// as `target`'s; other formats decode at full size.
    static func covering(_ target: PixelSize, _ source: LoadedSource, _ header: Image) -> DecodePlan {
        let stored = PixelSize(width: header.width, height: header.height)
        let target = PixelSize(width: max(1, target.width), height: max(1, target.height))
        switch source.format {
        case .jpeg:
            for shrink in [8, 4, 2] {
                let decoded = jpegShrunk(stored, by: shrink)
                if decoded.covers(target) { return shrunk(source, header, decoded, 1 / Double(shrink), ["shrink=\(shrink)"]) }
            }
        case .webp:
            let scale = max(Double(target.width) / Double(stored.width), Double(target.height) / Double(stored.height))
            if scale < 0.99 {
                // libwebp scales to rint(side × scale), which is at least the target's side.
                let decoded = PixelSize(
                    width: Int((Double(stored.width) * scale).rounded()), height: Int((Double(stored.height) * scale).rounded()))
                if decoded.covers(target) { return shrunk(source, header, decoded, scale, ["scale=\(scale)"]) }
            }
        case .svg, .pdf:
            return rendered(covering: target, source, header)
        default:
            break
        }
        return full(source, header)
    }

    /// What `vips_thumbnail` will decode for `target`: it keeps a factor of two for its final
    /// resize (JPEG shrink by factor / 2), and lets libwebp scale to the target directly.
    static func vipsThumbnail(_ target: PixelSize, _ source: LoadedSource, _ header: Image) -> DecodePlan {
        let stored = PixelSize(width: header.width, height: header.height)
        switch source.format {
        case .jpeg:
            let factor = min(Double(stored.width) / Double(max(1, target.width)), Double(stored.height) / Double(max(1, target.height)))
            let shrink = factor >= 16 ? 8 : factor >= 8 ? 4 : factor >= 4 ? 2 : 1
            if shrink > 1 { return shrunk(source, header, jpegShrunk(stored, by: shrink), 1 / Double(shrink), []) }
        case .webp:
            return shrunk(source, header, target, Double(target.width) / Double(max(1, stored.width)), [])
        case .svg, .pdf:
            // vips_thumbnail renders a vector source at the scale of the box, as Vignette does.
            return rendered(covering: target, source, header)
        default:
            break
        }
        return full(source, header)
    }

    /// A JPEG's size after libvips' DCT shrink: each side divided and rounded down (0 for a side
    /// shorter than the shrink: a shrink libvips must never be asked for).
    static func jpegShrunk(_ stored: PixelSize, by shrink: Int) -> PixelSize {
        PixelSize(width: stored.width / shrink, height: stored.height / shrink)
    }

    /// An SVG or PDF page rendered at the scale whose size covers `target` (libvips' `scale`
    /// option of `svgload` and `pdfload`; each side rounded to the nearest pixel, as they do):
    /// the vector form of shrink-on-load, for reducing and enlarging alike.
    static func rendered(covering target: PixelSize, _ source: LoadedSource, _ header: Image) -> DecodePlan {
        let stored = PixelSize(width: max(1, header.width), height: max(1, header.height))
        var scale = max(Double(target.width) / Double(stored.width), Double(target.height) / Double(stored.height))
        func size(_ scale: Double) -> PixelSize {
            PixelSize(
                width: max(1, Int((Double(stored.width) * scale).rounded())), height: max(1, Int((Double(stored.height) * scale).rounded())))
        }
        // Nudged up where the product falls just short of a whole pixel.
        for _ in 0..<8 where !size(scale).covers(target) { scale = scale.nextUp * 1.000_001 }
        // Within the option's range: libvips ignores a value outside it (with a warning) and
        // would draw the nominal size, whatever was planned and checked.
        scale = min(max(scale, renderedScales.lowerBound), renderedScales.upperBound)
        return shrunk(source, header, size(scale), scale, ["scale=\(scale)"])
    }

    /// The range of svgload's and pdfload's `scale` in libvips 8.14.
    static let renderedScales = 0.001...100_000.0


    private static func shrunk(
        _ source: LoadedSource, _ header: Image, _ decoded: PixelSize, _ scale: Double, _ options: [String]
    ) -> DecodePlan {
        DecodePlan(
            loadOptions: options, decoded: decoded, scale: scale,
            cost: .of(source: source, header: header, decoded: decoded))
    }
}
