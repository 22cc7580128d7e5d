#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The autoquality and best-format search (`OutputEncoding.Search`) for one image: each format
/// tried is written at the quality `AutoQuality` chooses, and with `f:best` the smallest result
/// is kept. The image is the processed one, before encoding: for `ssimulacra2` it is prepared
/// once as the reference (`SSIMULACRA2Reference`) and every candidate is decoded
/// (`ImageDecoder`) and scored against it.
///
/// The `ssimulacra2` search for one format starts at a quality predicted from the target (a
/// per-format table of typical photos), then steps by the secant of the scores seen (a slope
/// of half a point a quality step until two are known), inside the bracket of the lowest
/// quality that passed and the highest that failed; it stops at a score within the allowed
/// error of the target, when the bracket closes, or after `maxEncodes` encodes, the last one
/// kept for the max quality when nothing has passed yet. So it never returns a result below
/// target − error unless the max quality is below it too (then the max, `reachedTarget` false).
/// `cancellation` is checked between encodes.
struct AutoQualitySearch {
    /// The most encodes of one format.
    static let maxEncodes = 6

    let search: OutputEncoding.Search
    let limits: DecodingLimits
    let cancellation: ImagingCancellation?

    /// What the search chose: the bytes, the format written and the account of it.
    struct Outcome {
        let data: Data
        let format: EncodingFormat
        let choice: EncodingChoice
    }

    /// The references candidates are scored against, each prepared once: the image itself, and for
    /// an image with alpha written as JPEG, the image flattened onto white as the JPEG encoder
    /// flattens it (`Image.flattened()`), so that the search measures the encoding, not the lost alpha.
    private struct References {
        private var prepared: [Bool: SSIMULACRA2Reference] = [:]

        mutating func reference(for image: Image, writtenAs format: EncodingFormat) throws(ImagingError) -> SSIMULACRA2Reference {
            let flattens = image.hasAlpha && format.format == .jpeg
            if let made = prepared[flattens] { return made }
            let made = try SSIMULACRA2Reference(image: flattens ? image.flattened() : image)
            prepared[flattens] = made
            return made
        }
    }

    /// One format's result.
    private struct Trial {
        var data: Data
        var format: EncodingFormat
        var score: Double?
        var encodes = 0
        var scorings = 0
        var reached = true
    }

    /// `image` written by the search; `fallback` is the format `OutputEncoding.format(for:)`
    /// picks (the one format without `f:best`, and with it for images over `maxPixels`).
    func run(_ image: Image, fallback: EncodingFormat) throws(ImagingError) -> Outcome {
        let pixels = image.width * image.height
        var formats = [fallback]
        if let best = search.best, best.maxPixels == 0 || pixels <= best.maxPixels {
            let lossy = search.candidates.filter { !(image.hasAlpha && $0.format == .jpeg) }
            formats = lossy.isEmpty ? [fallback] : lossy
            if try ImageComplexity.score(image) < best.complexityThreshold { formats += search.lossless }
        }
        var references = References()
        var chosen: Trial?
        var (encodes, scorings) = (0, 0)
        for format in formats {
            try checkCancelled()
            let trial = try self.trial(format, image: image, pixels: pixels, references: &references)
            (encodes, scorings) = (encodes + trial.encodes, scorings + trial.scorings)
            if let best = chosen, best.data.count <= trial.data.count { continue }
            chosen = trial
        }
        guard let chosen else { throw ImagingError(.operationFailed, "no format was tried") }
        var choice = EncodingChoice(format: chosen.format.format)
        choice.quality = chosen.format.lossyQuality
        choice.lossless = chosen.format.lossyQuality == nil
        choice.score = chosen.score
        choice.encodes = encodes
        choice.scorings = scorings
        choice.formatsTried = formats.count
        choice.reachedTarget = chosen.reached
        return Outcome(data: chosen.data, format: chosen.format, choice: choice)
    }

    /// `format`'s result: searched when it has a quality and the search applies to the image,
    /// else written once at its set quality.
    private func trial(_ format: EncodingFormat, image: Image, pixels: Int, references: inout References) throws(ImagingError) -> Trial {
        guard let autoQuality = search.autoQuality, autoQuality.isOn, format.lossyQuality != nil,
            autoQuality.maxPixels == 0 || pixels <= autoQuality.maxPixels
        else {
            return Trial(data: try encode(image, format), format: format, encodes: 1)
        }
        let (low, high) = autoQuality.qualities(for: format.format)
        switch autoQuality.method {
        case .none:
            return Trial(data: try encode(image, format), format: format, encodes: 1)
        case .size:
            let target = Int(autoQuality.effectiveTarget.rounded())
            let fitted = try ImageEncoder.fitted(format, in: target, qualities: low...high, maxEncodes: Self.maxEncodes) { format throws(ImagingError) in
                try encode(image, format)
            }
            let written = format.with(quality: fitted.quality)
            return Trial(data: fitted.data, format: written, encodes: fitted.encodes, reached: fitted.data.count <= target)
        case .ssimulacra2:
            // The metric needs 8 pixels a side: smaller images are written at the max quality.
            guard image.width >= 8, image.height >= 8 else {
                let top = format.with(quality: high)
                return Trial(data: try encode(image, top), format: top, encodes: 1)
            }
            let reference = try references.reference(for: image, writtenAs: format)
            return try scoreSearch(format, image: image, reference: reference, qualities: low...high, autoQuality: autoQuality)
        }
    }

    /// The lowest quality in `qualities` found whose result scores at least target − error.
    private func scoreSearch(
        _ format: EncodingFormat, image: Image, reference: SSIMULACRA2Reference, qualities: ClosedRange<Int>, autoQuality: ImageRecipe.AutoQuality
    ) throws(ImagingError) -> Trial {
        let target = autoQuality.effectiveTarget, error = autoQuality.effectiveAllowedError
        let decoder = ImageDecoder(limits: limits)
        var (low, high) = (qualities.lowerBound, qualities.upperBound)
        var passed: Trial?
        var top: Trial?  // the max quality's result, once made
        var seen: [(quality: Int, score: Double)] = []
        var (encodes, scorings) = (0, 0)
        var quality = Self.predicted(target, for: format.format, in: qualities)
        while encodes < Self.maxEncodes {
            try checkCancelled()
            let written = format.with(quality: quality)
            let data = try encode(image, written)
            encodes += 1
            let score = try reference.score(decoder.decode(data))
            scorings += 1
            seen.append((quality, score))
            let trial = Trial(data: data, format: written, score: score, reached: score >= target - error)
            if quality == qualities.upperBound { top = trial }
            if score >= target - error {
                if passed.map({ quality < $0.format.lossyQuality ?? .max }) ?? true { passed = trial }
                high = quality - 1
                if score <= target + error { break }
            } else {
                low = quality + 1
            }
            guard low <= high else { break }
            // The last encode goes to the max quality while nothing has passed.
            if passed == nil, encodes == Self.maxEncodes - 1 {
                quality = qualities.upperBound
                continue
            }
            quality = Self.next(after: seen, target: target, in: low...high)
        }
        var result: Trial
        if let passed {
            result = passed
        } else if let top {
            result = top
        } else {
            // Nothing passed and the max was never made (the bracket closed below it): make it.
            let written = format.with(quality: qualities.upperBound)
            let data = try encode(image, written)
            let score = try reference.score(decoder.decode(data))
            (encodes, scorings) = (encodes + 1, scorings + 1)
            result = Trial(data: data, format: written, score: score, reached: score >= target - error)
        }
        result.encodes = encodes
        result.scorings = scorings
        return result
    }

    /// The next quality to try in `bracket`: aimed at `target` along the secant of the last two
    /// scores seen (half a point a quality step with one), at least one step from the last.
    static func next(after seen: [(quality: Int, score: Double)], target: Double, in bracket: ClosedRange<Int>) -> Int {
        guard let last = seen.last else { return bracket.upperBound }
        var slope = 0.5
        if seen.count >= 2 {
            let previous = seen[seen.count - 2]
            if previous.quality != last.quality {
                let measured = (last.score - previous.score) / Double(last.quality - previous.quality)
                if measured.isFinite, measured > 0.05 { slope = min(measured, 4) }
            }
        }
        var step = ((target - last.score) / slope).rounded()
        if step == 0 { step = target > last.score ? 1 : -1 }
        let aimed = Double(last.quality) + step
        let clamped = min(max(aimed, Double(bracket.lowerBound)), Double(bracket.upperBound))
        return Int(clamped)
    }

    /// The quality typical photos need in `format` to score `target`, within `qualities`: from a
    /// table of (score, quality) points per format, linearly between them.
    static func predicted(_ target: Double, for format: ImageFormat, in qualities: ClosedRange<Int>) -> Int {
        let points: [(score: Double, quality: Double)] =
            switch format {
            case .avif, .heic: [(50, 15), (60, 28), (70, 42), (75, 50), (80, 58), (85, 68), (90, 80)]
            case .webp: [(50, 20), (60, 40), (70, 62), (75, 72), (80, 82), (85, 90), (90, 96)]
            case .jxl: [(50, 25), (60, 45), (70, 62), (75, 70), (80, 78), (85, 86), (90, 92)]
            default: [(50, 25), (60, 42), (70, 62), (75, 72), (80, 82), (85, 89), (90, 94)]
            }
        var quality = points.last?.quality ?? 80
        if let first = points.first, target <= first.score { quality = first.quality }
        for (a, b) in zip(points, points.dropFirst()) where target > a.score && target <= b.score {
            quality = a.quality + (target - a.score) / (b.score - a.score) * (b.quality - a.quality)
        }
        return min(max(Int(quality.rounded()), qualities.lowerBound), qualities.upperBound)
    }

    private func encode(_ image: Image, _ format: EncodingFormat) throws(ImagingError) -> Data {
        try checkCancelled()
        return try ImageEncoder.encode(image, as: format, limits: limits)
    }

    private func checkCancelled() throws(ImagingError) {
        if cancellation?.isCancelled == true { throw ImagingError(.cancelled, "the autoquality search was stopped") }
    }
}
