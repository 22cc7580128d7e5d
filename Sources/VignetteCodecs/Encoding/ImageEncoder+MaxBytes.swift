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
        /// How many encodes it took.
        package var encodes = 1
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

    /// What `encode` makes as `format`, over `maxBytes` (when not 0) at the highest quality in
    /// `qualities` (nil: 1 to the format's own) whose result fits, found by bisection with at most
    /// `maxEncodes` encodes (the first at the top of the range), or the smallest result when none
    /// fits; a lossless format, or a result that fits at once, is encoded once. The one search by
    /// bytes: `max_bytes` and autoquality's `size` method both use it.
    package static func fitted(
        _ format: EncodingFormat, in maxBytes: Int, qualities: ClosedRange<Int>? = nil, maxEncodes: Int = .max,
        _ encode: (EncodingFormat) throws(ImagingError) -> Data
    ) throws(ImagingError) -> Fitted {
        let start = if let qualities, format.lossyQuality != nil { format.with(quality: qualities.upperBound) } else { format }
        var data = try encode(start)
        let floor = qualities?.lowerBound ?? 1
        guard maxBytes > 0, data.count > maxBytes, let quality = start.lossyQuality, quality > floor else {
            return Fitted(data: data, quality: start.lossyQuality)
        }
        // The best fit so far, the smallest result so far, and the quality range still to try.
        var (low, high) = (floor, quality - 1)
        var chosen = quality
        var smallest = Fitted(data: data, quality: quality)
        var encodes = 1
        while low <= high, encodes < maxEncodes {
            let middle = (low + high + 1) / 2
            let attempt = try encode(format.with(quality: middle))
            encodes += 1
            if attempt.count < smallest.data.count { smallest = Fitted(data: attempt, quality: middle) }
            if attempt.count <= maxBytes {
                (data, chosen) = (attempt, middle)
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        var fitted = data.count > maxBytes ? smallest : Fitted(data: data, quality: chosen)
        fitted.encodes = encodes
        return fitted
    }
}
