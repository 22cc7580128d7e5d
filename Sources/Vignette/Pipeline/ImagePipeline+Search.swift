#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Tracing

extension ImagePipeline {
    /// `image` written by `search` (`AutoQualitySearch`): the quality and, with `f:best`, the
    /// format chosen per image, said in the result's `choice`; `fallback` is the format the
    /// encoding picks without a search. Stops between encodes when `cancellation` is cancelled.
    static func searched(
        _ image: Image, by search: OutputEncoding.Search, fallback: EncodingFormat, limits: DecodingLimits,
        cancellation: ImagingCancellation?, span: (any Span)?
    ) throws(ImagePipelineError) -> EncodedImage {
        do throws(ImagingError) {
            let outcome = try AutoQualitySearch(search: search, limits: limits, cancellation: cancellation).run(image, fallback: fallback)
            let encoded = EncodedImage(
                data: outcome.data, format: outcome.format.format, width: image.width, height: image.height, choice: outcome.choice)
            span?.setEncoded(encoded, quality: outcome.choice.quality)
            return encoded
        } catch where error.kind == .cancelled {
            throw .cancelled
        } catch {
            throw .encodingFailed(error)
        }
    }

    /// The source's own bytes instead of `encoded`, when `f:best` allows it
    /// (`BestFormat.passesSourceThrough`): nothing but the thumbnail is done to the image
    /// (no processor), the source is a still in a format the search could have chosen, upright,
    /// of the result's size, and no larger than the result. nil otherwise. `loaded` is the
    /// source's bytes when they were loaded already.
    func sourceInstead(
        of encoded: EncodedImage, request: ImageRequest, encoding: OutputEncoding, loaded: Data?, work: SharedWork<EncodeResult>
    ) async throws -> EncodedImage? {
        guard let search = encoding.search, let best = search.best, best.passesSourceThrough, var choice = encoded.choice,
            request.processors.isEmpty
        else { return nil }
        let data = if let loaded { loaded } else { try await work.value(of: loadWork(for: request, trace: work.trace)) }
        guard data.count <= encoded.data.count, let info = try? ImageDecoder(limits: request.limits(within: configuration.decodingLimits)).probe(data)
        else { return nil }
        let allowed = Set((search.candidates + search.lossless).map(\.format))
        guard allowed.contains(info.format), !info.isAnimated, info.orientation <= 1, info.width == encoded.width, info.height == encoded.height
        else { return nil }
        choice.format = info.format
        choice.quality = nil
        choice.score = nil
        choice.lossless = false
        choice.isSource = true
        return EncodedImage(data: data, format: info.format, width: info.width, height: info.height, choice: choice)
    }
}
