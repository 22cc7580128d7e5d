import ArgumentParser
import VignetteCodecs

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

/// `--format`: a format, or `auto` (PNG for images with alpha, JPEG otherwise).
enum OutputFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, jpeg, png, webp, heic, avif

    func encoding(hasAlpha: Bool, quality: Int?) -> EncodingFormat? {
        let format: ImageFormat
        switch self {
        case .auto: format = hasAlpha ? .png : .jpeg
        case .jpeg: format = .jpeg
        case .png: format = .png
        case .webp: format = .webp
        case .heic: format = .heic
        case .avif: format = .avif
        }
        return EncodingFormat.default(for: format, quality: quality)
    }
}
