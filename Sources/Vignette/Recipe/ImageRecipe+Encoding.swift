extension ImageRecipe {
    /// Each lossy format's quality when the recipe names none: the one place for it.
    public static func defaultQuality(for format: ImageFormat) -> Int {
        switch format {
        case .heic, .avif: 50
        default: 80
        }
    }

    /// The qualities an autoquality search tries for `format` when nothing narrows them
    /// (`AutoQuality.qualities(for:)`): 30–95, AVIF and HEIC 20–90 (their scales run lower).
    public static func defaultQualityRange(for format: ImageFormat) -> ClosedRange<Int> {
        switch format {
        case .heic, .avif: 20...90
        default: 30...95
        }
    }

    /// The SSIMULACRA2 score an autoquality search aims at when none is given: 80, "very high
    /// quality" on the metric's scale.
    public static let defaultAutoQualityTarget = 80.0

    /// The score points below the target an autoquality search still takes when none is given.
    public static let defaultAllowedScoreError = 1.0

    /// The formats this recipe can write (`format`, and what `encoding(accepting:)` chooses).
    public static let writableFormats: [ImageFormat] = [.jpeg, .png, .webp, .avif, .heic, .gif, .jxl, .tiff, .bmp, .ico]

    /// The quality `format` is written at: `formatQuality`'s, else `quality`, else the default.
    public func quality(for format: ImageFormat) -> Int {
        formatQuality[format] ?? quality ?? Self.defaultQuality(for: format)
    }

    /// `format` with this recipe's quality and metadata settings; `.unsupportedFormat` for a
    /// format Vignette does not write.
    public func encodingFormat(_ format: ImageFormat) throws(ImagingError) -> EncodingFormat {
        guard let encoding = writing(format) else { throw ImagingError(.unsupportedFormat, "Vignette cannot write \(format.rawValue)") }
        return encoding
    }

    func writing(_ format: ImageFormat) -> EncodingFormat? {
        let keep = !stripMetadata
        switch format {
        case .jpeg: return .jpeg(JPEGOptions(quality: quality(for: .jpeg), keepMetadata: keep))
        case .png: return .png(PNGOptions(keepMetadata: keep))
        case .webp: return .webp(WebPOptions(quality: quality(for: .webp)))
        case .heic: return .heic(HEIFOptions(quality: quality(for: .heic)))
        case .avif: return .avif(HEIFOptions(quality: quality(for: .avif)))
        case .gif: return .gif(GIFOptions())
        case .jxl: return .jxl(JXLOptions(quality: quality(for: .jxl)))
        case .tiff: return .tiff(TIFFOptions(keepMetadata: keep))
        case .bmp: return .bmp
        case .ico: return .ico
        default: return nil
        }
    }

    /// JPEG for opaque images, `alphaFormat` (PNG when it cannot be written) for images with alpha.
    var opaqueOrAlpha: OutputEncoding {
        let opaque = writing(.jpeg) ?? .jpeg(JPEGOptions()), alpha = writing(alphaFormat) ?? writing(.png) ?? .png(PNGOptions())
        return OutputEncoding(id: "\(opaque.identifier)|alpha:\(alpha.identifier)") { $0.hasAlpha ? alpha : opaque }
    }

    /// The format `encoding(accepting:)` writes for an image with or without alpha.
    public func outputFormat(hasAlpha: Bool, accepting: Set<ImageFormat> = []) -> ImageFormat {
        if let format { return format }
        if let preferred = [ImageFormat.avif, .webp].first(where: accepting.contains) { return preferred }
        return hasAlpha ? (writing(alphaFormat) == nil ? .png : alphaFormat) : .jpeg
    }

    /// The output encoding: `format` when the recipe names one; otherwise AVIF when `accepting`
    /// holds it, else WebP when it holds that, else JPEG for opaque images and `alphaFormat` for
    /// images with alpha (then the choice depends on `accepting`: `negotiatesFormat`). The
    /// encoding's id names every setting, for cache keys.
    public func encoding(accepting: Set<ImageFormat> = []) throws(ImagingError) -> OutputEncoding {
        let encoding = try chosenEncoding(accepting: accepting)
        let fitted = maxBytes > 0 ? encoding.fitting(in: maxBytes) : encoding
        return searching(fitted.keepingGainMap(keepGainMap), accepting: accepting)
    }

    /// Whether `encoding(accepting:)` chooses the format from what the client accepts: the recipe
    /// names none (a server's response then varies with `Accept`).
    public var negotiatesFormat: Bool { format == nil }

    private func chosenEncoding(accepting: Set<ImageFormat>) throws(ImagingError) -> OutputEncoding {
        if format == .svg { return .sanitizedSVG }
        if let format { return .fixed(try encodingFormat(format)) }
        for preferred in [ImageFormat.avif, .webp] where accepting.contains(preferred) {
            return .fixed(try encodingFormat(preferred))
        }
        return opaqueOrAlpha
    }
}
