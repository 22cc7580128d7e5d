extension EncodingFormat {
    /// Whether the format holds an animation: WebP and GIF.
    package var keepsAnimation: Bool {
        switch self {
        case .webp, .gif: true
        default: false
        }
    }

    /// The format's quality, for the lossy ones (JPEG, lossy WebP, HEIC, AVIF, JPEG XL); nil otherwise.
    package var lossyQuality: Int? {
        switch self {
        case .jpeg(let o): o.quality
        case .webp(let o): o.lossless ? nil : o.quality
        case .heic(let o), .avif(let o): o.lossless ? nil : o.quality
        case .jxl(let o): o.lossless ? nil : o.quality
        default: nil
        }
    }

    /// The formats with a lossless mode (`with(lossless: true)`): WebP, HEIC, AVIF and JPEG XL.
    package static let losslessFormats: Set<ImageFormat> = [.webp, .heic, .avif, .jxl]

    /// The same format and settings at `quality` (the formats that have one) and, when
    /// `lossless` is given, lossless or lossy (`losslessFormats`); nil leaves a setting as it is.
    package func with(quality: Int? = nil, lossless: Bool? = nil) -> EncodingFormat {
        func set<Options>(_ options: Options, _ qualityKey: WritableKeyPath<Options, Int>, _ losslessKey: WritableKeyPath<Options, Bool>?) -> Options {
            var options = options
            if let quality { options[keyPath: qualityKey] = quality }
            if let lossless, let losslessKey { options[keyPath: losslessKey] = lossless }
            return options
        }
        switch self {
        case .jpeg(let o): return .jpeg(set(o, \.quality, nil))
        case .webp(let o): return .webp(set(o, \.quality, \.lossless))
        case .heic(let o): return .heic(set(o, \.quality, \.lossless))
        case .avif(let o): return .avif(set(o, \.quality, \.lossless))
        case .jxl(let o): return .jxl(set(o, \.quality, \.lossless))
        default: return self
        }
    }
}
