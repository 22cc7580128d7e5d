import ArgumentParser
import Vignette
import VignetteImgproxy

/// `--quality`: a fixed quality 1–100, or `auto[:TARGET]`: the lowest quality whose result
/// scores at least TARGET (default 80) on SSIMULACRA2 (`ImageRecipe.AutoQuality`, method
/// `ssimulacra2`).
enum QualityChoice: ExpressibleByArgument, Sendable, Equatable {
    case fixed(Int)
    case auto(target: Double?)

    init?(argument: String) {
        if let quality = Int(argument) {
            self = .fixed(quality)
            return
        }
        let parts = argument.lowercased().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.first == "auto", parts.count <= 2 else { return nil }
        guard parts.count == 2 else {
            self = .auto(target: nil)
            return
        }
        guard let target = Double(parts[1]), target.isFinite else { return nil }
        self = .auto(target: target)
    }
}

/// The flags of `--format best` and `--quality auto`.
struct SearchFlags: ParsableArguments {
    @Option(help: ArgumentHelp("With --format best: the formats it may choose from, comma-separated (default jpeg,png,webp,avif); AVIF is never chosen for animations.", valueName: "FORMATS"))
    var accept: String?

    @Flag(help: "With --format best: always write an encoded result, never the input's own bytes (which are written by default when they are in an accepted format, of the thumbnail's size and no larger).")
    var noSourcePassthrough = false

    /// The formats `--accept` names (or the default), read by the one format-name parser.
    func acceptedFormats() throws(CommandFailure) -> [ImageFormat] {
        guard let accept else { return [.jpeg, .png, .webp, .avif] }
        var formats: [ImageFormat] = []
        for name in accept.split(separator: ",") {
            do { formats.append(try ImgproxyOptions.format(name)) } catch { throw CommandFailure("--accept: \(error.message)") }
        }
        guard !formats.isEmpty else { throw CommandFailure("--accept: name at least one format") }
        return formats
    }

    /// `recipe` with `--format best` (`best`) and `--quality` (`quality`) applied.
    func apply(best: Bool, quality: QualityChoice?, to recipe: inout ImageRecipe) throws(CommandFailure) {
        switch quality {
        case .fixed(let value): recipe.quality = value
        case .auto(let target): recipe.autoQuality = ImageRecipe.AutoQuality(method: .ssimulacra2, target: target)
        case nil: break
        }
        if best {
            recipe.format = nil
            recipe.bestFormat = ImageRecipe.BestFormat(formats: try acceptedFormats(), passesSourceThrough: !noSourcePassthrough)
        } else if accept != nil {
            throw CommandFailure("--accept goes with --format best")
        }
    }
}

extension EncodingChoice {
    /// The choice in `--json` reports: format, quality, lossless, score, encodes, scorings,
    /// formats tried, whether the target was reached and whether the input's bytes were kept.
    var json: JSONValue {
        .object([
            ("format", .string(format.rawValue)), ("quality", .optional(quality)), ("lossless", .bool(lossless)),
            ("score", score.map { .double(($0 * 100).rounded() / 100) } ?? .null), ("encodes", .int(encodes)),
            ("scorings", .int(scorings)), ("formats", .int(formatsTried)), ("reached_target", .bool(reachedTarget)),
            ("source", .bool(isSource)),
        ])
    }
}
