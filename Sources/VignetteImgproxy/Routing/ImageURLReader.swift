import Vignette

/// Reads an image URL's path into an `ImageOrder`: imgproxy's format, signature checked.
///
/// `/%signature/%options/%base64url_source.%extension` (the base64 may be split by `/`) or
/// `/%signature/%options/plain/%percent_encoded_source@%extension`; the extension is optional.
/// Option segments are `name:args`; the first segment without a `:` starts the source.
package struct ImageURLReader: Sendable {
    let signature: URLSignature?
    let options: ImgproxyOptions
    /// What every recipe is checked against before any work (a padding over the budget is 413).
    let limits: DecodingLimits

    init(configuration: ServerConfiguration) {
        if let key = configuration.signatureKey {
            signature = URLSignature(keyHex: key, saltHex: configuration.signatureSalt ?? "")
        } else {
            signature = nil
        }
        options = ImgproxyOptions(presets: configuration.presets)
        limits = configuration.decodingLimits
    }

    /// Whether a key was configured but could not be read (the server refuses to start then).
    static func hasBadKey(_ configuration: ServerConfiguration) -> Bool {
        guard let key = configuration.signatureKey else { return false }
        return URLSignature(keyHex: key, saltHex: configuration.signatureSalt ?? "") == nil
    }

    /// The parsed URL: its options applied over the `default` preset, and its source.
    func parse(_ path: String) throws(ServerFailure) -> (recipe: ImageRecipe, source: String, delivery: ImgproxyOptions.Delivery) {
        do {
            return try read(path)
        } catch let failure as ServerFailure {
            throw failure
        } catch let error as ImagingError {
            throw ServerFailure(recipe: error)
        } catch {
            throw .badRequest("the URL cannot be read")
        }
    }

    private func read(_ path: String) throws -> (recipe: ImageRecipe, source: String, delivery: ImgproxyOptions.Delivery) {
        var segments = try signedSegments(path)
        var recipe = ImageRecipe()
        var delivery = ImgproxyOptions.Delivery()
        if options.presets["default"] != nil { try options.applyPreset("default", to: &recipe, delivery: &delivery) }
        while let segment = segments.first, segment.contains(":"), segment != "plain" {
            try options.apply(segment, to: &recipe, delivery: &delivery)
            segments = segments.dropFirst()
        }
        let (source, fileExtension) = try Self.source(of: segments)
        if let fileExtension, !fileExtension.isEmpty { recipe.format = try ImgproxyOptions.format(fileExtension) }
        return (recipe, source, delivery)
    }

    /// The signed part of `path` (after the signature, which is checked) split into segments.
    func signedSegments(_ path: String) throws -> ArraySlice<Substring> {
        guard path.utf8.count <= 16_384 else { throw ServerFailure.badRequest("the URL is too long") }
        guard path.hasPrefix("/") else { throw ServerFailure.badRequest("the URL must start with /") }
        let rest = path.dropFirst()
        guard let slash = rest.firstIndex(of: "/") else { throw ServerFailure.badRequest("the URL has no options or source") }
        let signed = rest[slash...]
        try check(signature: rest[..<slash], of: signed)
        return signed.dropFirst().split(separator: "/", omittingEmptySubsequences: false)[...]
    }

    /// The source the segments after the options name (`plain/…[@ext]`, or base64url split by
    /// `/`, with `.ext`), and its extension, if any.
    static func source(of segments: ArraySlice<Substring>) throws -> (source: String, fileExtension: Substring?) {
        guard let first = segments.first, !first.isEmpty else { throw ServerFailure.badRequest("the URL has no source") }
        let source: String
        var fileExtension: Substring?
        if first == "plain" {
            var plain = segments.dropFirst().joined(separator: "/")[...]
            if let at = plain.lastIndex(of: "@") {
                fileExtension = plain[plain.index(after: at)...]
                plain = plain[..<at]
            }
            guard let decoded = PercentEncoding.decoded(String(plain)), !decoded.isEmpty else {
                throw ServerFailure.badRequest("the source is not valid percent-encoding")
            }
            source = decoded
        } else if first == "enc" {
            throw ServerFailure.badRequest("encrypted sources are not supported")
        } else {
            var encoded = segments.joined()[...]
            if let dot = encoded.lastIndex(of: ".") {
                fileExtension = encoded[encoded.index(after: dot)...]
                encoded = encoded[..<dot]
            }
            guard let bytes = Base64URL.decode(encoded), let decoded = String(validating: bytes, as: UTF8.self), !decoded.isEmpty else {
                throw ServerFailure.badRequest("the source is not valid base64url")
            }
            source = decoded
        }
        guard !source.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw ServerFailure.badRequest("the source holds control characters")
        }
        return (source, fileExtension)
    }

    /// The order for `path`: what to fetch and the recipe to make of it, checked against the
    /// server's limits (400 for a value out of range, 413 for a result over the budget).
    func order(for path: String) throws(ServerFailure) -> ImageOrder {
        let (recipe, source, delivery) = try parse(path)
        do { try recipe.validate(limits: limits) } catch { throw ServerFailure(recipe: error) }
        return ImageOrder(source: source, recipe: recipe, delivery: delivery)
    }

    private func check(signature given: Substring, of signed: Substring) throws(ServerFailure) {
        guard let signature else { return }  // no key: any segment (insecure, _) is accepted
        guard signature.isValid(given, for: signed) else { throw .forbidden("invalid signature") }
    }
}
