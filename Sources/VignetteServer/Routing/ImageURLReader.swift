import Vignette

/// Reads an image URL's path into an `ImageOrder`: imgproxy's format, signature checked.
///
/// `/%signature/%options/%base64url_source.%extension` (the base64 may be split by `/`) or
/// `/%signature/%options/plain/%percent_encoded_source@%extension`; the extension is optional.
/// Option segments are `name:args`; the first segment without a `:` starts the source.
struct ImageURLReader: Sendable {
    let signature: URLSignature?
    let options: OptionParser

    init(configuration: ServerConfiguration) {
        if let key = configuration.signatureKey {
            signature = URLSignature(keyHex: key, saltHex: configuration.signatureSalt ?? "")
        } else {
            signature = nil
        }
        options = OptionParser(presets: configuration.presets)
    }

    /// Whether a key was configured but could not be read (the server refuses to start then).
    static func hasBadKey(_ configuration: ServerConfiguration) -> Bool {
        guard let key = configuration.signatureKey else { return false }
        return URLSignature(keyHex: key, saltHex: configuration.signatureSalt ?? "") == nil
    }

    /// The parsed URL: its options applied over the `default` preset, and its source.
    func parse(_ path: String) throws(ServerFailure) -> (options: ProcessingOptions, source: String) {
        guard path.utf8.count <= 16_384 else { throw .badRequest("the URL is too long") }
        guard path.hasPrefix("/") else { throw .badRequest("the URL must start with /") }
        let rest = path.dropFirst()
        guard let slash = rest.firstIndex(of: "/") else { throw .badRequest("the URL has no options or source") }
        let signed = rest[slash...]
        try check(signature: rest[..<slash], of: signed)

        var options = ProcessingOptions()
        if self.options.presets["default"] != nil { try self.options.applyPreset("default", to: &options, depth: 0) }
        var segments = signed.dropFirst().split(separator: "/", omittingEmptySubsequences: false)[...]
        while let segment = segments.first, segment.contains(":"), segment != "plain" {
            try self.options.apply(segment, to: &options)
            segments = segments.dropFirst()
        }
        guard let first = segments.first, !first.isEmpty else { throw .badRequest("the URL has no source") }
        let source: String
        var fileExtension: Substring?
        if first == "plain" {
            var plain = segments.dropFirst().joined(separator: "/")[...]
            if let at = plain.lastIndex(of: "@") {
                fileExtension = plain[plain.index(after: at)...]
                plain = plain[..<at]
            }
            guard let decoded = LocalSourceResolver.percentDecoded(String(plain)), !decoded.isEmpty else {
                throw .badRequest("the source is not valid percent-encoding")
            }
            source = decoded
        } else if first == "enc" {
            throw .badRequest("encrypted sources are not supported")
        } else {
            var encoded = segments.joined()[...]
            if let dot = encoded.lastIndex(of: ".") {
                fileExtension = encoded[encoded.index(after: dot)...]
                encoded = encoded[..<dot]
            }
            guard let bytes = Base64URL.decode(encoded), let decoded = String(validating: bytes, as: UTF8.self), !decoded.isEmpty else {
                throw .badRequest("the source is not valid base64url")
            }
            source = decoded
        }
        if let fileExtension, !fileExtension.isEmpty { options.format = try OptionParser.format(fileExtension) }
        guard !source.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { throw .badRequest("the source holds control characters") }
        return (options, source)
    }

    /// The order for `path`: what to fetch and what to make of it.
    func order(for path: String) throws(ServerFailure) -> ImageOrder {
        let (options, source) = try parse(path)
        return try ImageURLReader.order(options, source: source)
    }

    private func check(signature given: Substring, of signed: Substring) throws(ServerFailure) {
        guard let signature else { return }  // no key: any segment (insecure, _) is accepted
        guard signature.isValid(given, for: signed) else { throw .forbidden("invalid signature") }
    }

    /// What Vignette makes for `options`: the box (× dpr) as `ThumbnailOptions`, the format and
    /// quality, then the steps imgproxy applies around the resize, planned by the
    /// `ThumbnailOperations` that `vignette thumbnail` uses too: rotate (as if before the resize,
    /// as imgproxy does: the thumbnail is made in the turned box, then turned), sharpen, flatten
    /// onto the background, extend to the box at the gravity.
    static func order(_ options: ProcessingOptions, source: String) throws(ServerFailure) -> ImageOrder {
        let maxSide = ProcessingOptions.maxSide
        let operations = options.operations
        do { try operations.validate() } catch { throw .badRequest(error.message) }
        let boxWidth = min(maxSide, operations.scaled(options.width)), boxHeight = min(maxSide, operations.scaled(options.height))
        var width = boxWidth, height = boxHeight
        var fit: ThumbnailOptions.Fit
        switch options.resizingType {
        case .fit: fit = .inside
        case .fill, .fillDown: fit = .cover
        case .auto: fit = .auto
        case .force: fit = .fill
        }
        // A side of 0 follows from the other and the aspect ratio: a fit inside that side alone.
        if width == 0 || height == 0 {
            fit = .inside
            if width == 0 { width = maxSide }
            if height == 0 { height = maxSide }
        }
        var thumbnail = operations.turned(ThumbnailOptions(
            width: max(1, width), height: max(1, height), fit: fit,
            crop: options.gravity.cropAnchor, allowUpscaling: options.enlarge))
        thumbnail.blurSigma = options.blur
        thumbnail.keepProfile = !options.stripColorProfile
        // As imgproxy: an animated GIF or WebP stays animated when written as WebP or GIF.
        thumbnail.frames = .all
        let processors = operations.processors(extendingTo: PixelSize(width: boxWidth, height: boxHeight))
        return ImageOrder(
            source: source, thumbnail: thumbnail, processors: processors, format: options.format, quality: options.quality,
            cacheBuster: options.cacheBuster)
    }
}

extension ProcessingOptions.Gravity {
    /// What a `fill` crop keeps.
    var cropAnchor: CropAnchor {
        switch self {
        case .north: .north
        case .south: .south
        case .east: .east
        case .west: .west
        case .northEast: .northEast
        case .northWest: .northWest
        case .southEast: .southEast
        case .southWest: .southWest
        case .centre: .centre
        case .smart: .attention
        }
    }

    /// Where `extend` puts the image on its canvas (smart is the centre).
    var canvasGravity: Gravity {
        switch self {
        case .north: .north
        case .south: .south
        case .east: .east
        case .west: .west
        case .northEast: .northEast
        case .northWest: .northWest
        case .southEast: .southEast
        case .southWest: .southWest
        case .centre, .smart: .centre
        }
    }
}
