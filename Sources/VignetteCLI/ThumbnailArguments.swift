import ArgumentParser
import Vignette

/// `--size N` (a square box) or `--size WxH`.
struct BoxSize: ExpressibleByArgument {
    let width: Int
    let height: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, (1...2).contains(numbers.count),
            numbers.allSatisfy({ (1...100_000).contains($0) })
        else { return nil }
        width = numbers[0]
        height = numbers.count == 2 ? numbers[1] : numbers[0]
    }
}

extension ThumbnailOptions.Fit: ExpressibleByArgument {}

extension FrameSelection: ExpressibleByArgument {}

/// `--format`: a format, or `auto` (`--alpha-format` for images with alpha, JPEG otherwise).
enum OutputFormatChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, jpeg, png, webp, heic, avif, gif

    func encoding(hasAlpha: Bool, alphaFormat: AlphaFormatChoice = .png, quality: Int?,
                  keepMetadata: Bool = false) -> EncodingFormat {
        let format: ImageFormat
        switch self {
        case .auto: format = hasAlpha ? alphaFormat.format : .jpeg
        case .jpeg: format = .jpeg
        case .png: format = .png
        case .webp: format = .webp
        case .heic: format = .heic
        case .avif: format = .avif
        case .gif: format = .gif
        }
        switch format {
        case .png: return .png(PNGOptions(keepMetadata: keepMetadata))
        case .webp: return .webp(WebPOptions(quality: quality ?? 80))
        case .heic: return .heic(HEIFOptions(quality: quality ?? 50))
        case .avif: return .avif(HEIFOptions(quality: quality ?? 50))
        case .gif: return .gif(GIFOptions())
        default: return .jpeg(JPEGOptions(quality: quality ?? 80, keepMetadata: keepMetadata))
        }
    }
}

/// `--alpha-format`: what `--format auto` writes for images with alpha.
enum AlphaFormatChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case png, webp, avif

    var format: ImageFormat {
        switch self {
        case .png: .png
        case .webp: .webp
        case .avif: .avif
        }
    }
}
