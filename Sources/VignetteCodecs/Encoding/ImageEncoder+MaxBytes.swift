#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageEncoder {
    /// What an encode within a byte budget made: the bytes and the quality they were made at
    /// (nil for a lossless format).
    package struct Fitted: Sendable {
        package let data: Data
        package let quality: Int?
    }

    /// `image` encoded as `format` within `maxBytes` (0: no budget): `fitted(_:in:_:)`.
    package static func encode(
        _ image: Image, as format: EncodingFormat, maxBytes: Int, limits: DecodingLimits
    ) throws(ImagingError) -> Fitted {
        try fitted(format, in: maxBytes) { format throws(ImagingError) in try encode(image, as: format, limits: limits) }
    }

    /// `animation` encoded as `format` within `maxBytes` (0: no budget), stopped when
    /// `cancellation` is cancelled: `fitted(_:in:_:)`.
    package static func encode(
        _ animation: Animation, as format: EncodingFormat, maxBytes: Int, limits: DecodingLimits, cancellation: ImagingCancellation?
    ) throws(ImagingError) -> Fitted {
        try fitted(format, in: maxBytes) { format throws(ImagingError) in
            try encode(animation, as: format, limits: limits, cancellation: cancellation)
        }
    }

    /// What `encode` makes as `format`, over `maxBytes` (when not 0) at the highest quality (at
    /// most the format's own) whose result fits, found by bisection, or the smallest result when
    /// none fits; a lossless format, or a result that fits at once, is encoded once.
    package static func fitted(
        _ format: EncodingFormat, in maxBytes: Int, _ encode: (EncodingFormat) throws(ImagingError) -> Data
    ) throws(ImagingError) -> Fitted {
        var data = try encode(format)
        guard maxBytes > 0, data.count > maxBytes, let quality = format.lossyQuality, quality > 1 else {
            return Fitted(data: data, quality: format.lossyQuality)
        }
        // The best fit so far, the smallest result so far, and the quality range still to try.
        var (low, high) = (1, quality - 1)
        var chosen = quality
        var smallest = Fitted(data: data, quality: quality)
        while low <= high {
            let middle = (low + high + 1) / 2
            let attempt = try encode(format.with(quality: middle))
            if attempt.count < smallest.data.count { smallest = Fitted(data: attempt, quality: middle) }
            if attempt.count <= maxBytes {
                (data, chosen) = (attempt, middle)
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return data.count > maxBytes ? smallest : Fitted(data: data, quality: chosen)
    }
}
