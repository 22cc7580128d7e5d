import ArgumentParser
import Vignette
import VignetteImgproxy

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
    case auto, best, jpeg, png, webp, heic, avif, gif, jxl, tiff, bmp, ico, svg

    /// The recipe's format, read by the one format-name parser (`ImgproxyOptions.format`): nil for
    /// auto and best (`SearchFlags`).
    var format: ImageFormat? { self == .auto || self == .best ? nil : try? ImgproxyOptions.format(rawValue[...]) }
}

extension ThumbnailOptions.Fit {
    /// The recipe's resizing type for `--fit`.
    var resizingType: ImageRecipe.ResizingType {
        switch self {
        case .inside: .fit
        case .cover: .fill
        case .fill: .force
        case .auto: .auto
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
