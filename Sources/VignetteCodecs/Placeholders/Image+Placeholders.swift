#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A placeholder string's algorithm.
public enum PlaceholderKind: String, Sendable, CaseIterable, Codable {
    /// `ThumbHash`, base64-encoded.
    case thumbhash
    /// `BlurHash` with 4 × 3 components.
    case blurhash
}

extension Image {
    /// The image's placeholder: ThumbHash (of the image fitted into 100 × 100 with `vips_resize`,
    /// base64) or BlurHash (4 × 3 components, of the image fitted into 32 × 32). Equal images give
    /// equal strings.
    public func placeholder(_ kind: PlaceholderKind) throws(ImagingError) -> String {
        switch kind {
        case .thumbhash:
            let small = try fitted(into: 100).pixels()
            let hash = try ThumbHash.encode(width: small.width, height: small.height, rgba: PlaceholderPixels.rgba(small))
            return Data(hash).base64EncodedString()
        case .blurhash:
            return try blurHash(componentsX: 4, componentsY: 3)
        }
    }

    /// The image's BlurHash with `componentsX` × `componentsY` components (1–9 each), of the image
    /// fitted into 32 × 32.
    public func blurHash(componentsX: Int, componentsY: Int) throws(ImagingError) -> String {
        let small = try fitted(into: 32).pixels()
        return try BlurHash.encode(
            PixelBuffer(width: small.width, height: small.height, bands: 4, bytes: PlaceholderPixels.rgba(small)),
            componentsX: componentsX, componentsY: componentsY)
    }

    /// The image scaled down (never up) to fit a `side` × `side` box.
    private func fitted(into side: Int) throws(ImagingError) -> Image {
        let scale = min(1, Double(side) / Double(max(width, height)))
        guard scale < 1 else { return self }
        let w = max(1, min(side, Int((Double(width) * scale).rounded())))
        let h = max(1, min(side, Int((Double(height) * scale).rounded())))
        return try resized(toWidth: w, height: h)
    }
}

/// Pixels of any band count as RGBA.
enum PlaceholderPixels {
    static func rgba(_ pixels: PixelBuffer) -> [UInt8] {
        if pixels.bands == 4 { return pixels.bytes }
        var out = [UInt8](repeating: 255, count: pixels.width * pixels.height * 4)
        for index in 0..<(pixels.width * pixels.height) {
            let source = index * pixels.bands
            switch pixels.bands {
            case 1: (out[index * 4], out[index * 4 + 1], out[index * 4 + 2]) = (pixels.bytes[source], pixels.bytes[source], pixels.bytes[source])
            case 2:
                (out[index * 4], out[index * 4 + 1], out[index * 4 + 2]) = (pixels.bytes[source], pixels.bytes[source], pixels.bytes[source])
                out[index * 4 + 3] = pixels.bytes[source + 1]
            default:
                (out[index * 4], out[index * 4 + 1], out[index * 4 + 2]) = (pixels.bytes[source], pixels.bytes[source + 1], pixels.bytes[source + 2])
            }
        }
        return out
    }
}
