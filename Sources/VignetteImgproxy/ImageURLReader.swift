import Vignette
import VignetteSupport

/// Reads an image URL's path into an `ImageOrder`: imgproxy's format, signature checked.
///
/// `/%signature/%options/%base64url_source.%extension` (the base64 may be split by `/`) or
/// `/%signature/%options/plain/%percent_encoded_source@%extension`; the extension is optional.
/// Option segments are `name:args`; the first segment without a `:` starts the source. What it
/// refuses it throws as an `ImageFailure`: 400 for a URL that cannot be read or a recipe that
/// cannot be made (413 and 415 as `ImageFailure(recipe:)` says), 403 for a bad signature.
package struct ImageURLReader: Sendable {
    let signature: URLSignature?
    let options: ImgproxyOptions
    /// What every recipe is checked against before any work (a padding over the budget is 413).
    let limits: DecodingLimits

    /// A reader that checks signatures with the hex `signatureKey` and `signatureSalt` (none with no
    /// key: any signature segment is accepted), expands `presets`, and checks every recipe against
    /// `limits`.
    /// - Throws: `ImagingError` (`.invalidArgument`) when the key or the salt is not hex, or the key is empty.
    package init(signatureKey: String?, signatureSalt: String?, presets: [String: String], limits: DecodingLimits) throws(ImagingError) {
        if let key = signatureKey {
            guard let signature = URLSignature(keyHex: key, saltHex: signatureSalt ?? "") else {
                throw ImagingError(.invalidArgument, "the signing key and salt must be hex, and the key not empty")
            }
            self.signature = signature
        } else {
            signature = nil
        }
        options = ImgproxyOptions(presets: presets)
        self.limits = limits
    }

    /// The parsed URL: its options applied over the `default` preset, and its source.
    func parse(_ path: String) throws(ImageFailure) -> (recipe: ImageRecipe, source: String, delivery: ImgproxyOptions.Delivery) {
        try Self.readable { try read(path) }
    }

    /// `body`'s result, or the failure it is answered with: its own `ImageFailure`, a recipe's
    /// `ImagingError` through `ImageFailure(recipe:)`, anything else 400.
    private static func readable<T>(_ body: () throws -> T) throws(ImageFailure) -> T {
        do {
            return try body()
        } catch let failure as ImageFailure {
            throw failure
        } catch let error as ImagingError {
            throw ImageFailure(recipe: error)
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
        guard path.utf8.count <= 16_384 else { throw ImageFailure.badRequest("the URL is too long") }
        guard path.hasPrefix("/") else { throw ImageFailure.badRequest("the URL must start with /") }
        let rest = path.dropFirst()
        guard let slash = rest.firstIndex(of: "/") else { throw ImageFailure.badRequest("the URL has no options or source") }
        let signed = rest[slash...]
        try check(signature: rest[..<slash], of: signed)
        return signed.dropFirst().split(separator: "/", omittingEmptySubsequences: false)[...]
    }

    /// The source the segments after the options name (`plain/…[@ext]`, or base64url split by
    /// `/`, with `.ext`), and its extension, if any.
    static func source(of segments: ArraySlice<Substring>) throws -> (source: String, fileExtension: Substring?) {
        guard let first = segments.first, !first.isEmpty else { throw ImageFailure.badRequest("the URL has no source") }
        let source: String
        var fileExtension: Substring?
        if first == "plain" {
            var plain = segments.dropFirst().joined(separator: "/")[...]
            if let at = plain.lastIndex(of: "@") {
                fileExtension = plain[plain.index(after: at)...]
                plain = plain[..<at]
            }
            guard let decoded = PercentEncoding.decoded(String(plain)), !decoded.isEmpty else {
                throw ImageFailure.badRequest("the source is not valid percent-encoding")
            }
            source = decoded
        } else if first == "enc" {
            throw ImageFailure.badRequest("encrypted sources are not supported")
        } else {
            var encoded = segments.joined()[...]
            if let dot = encoded.lastIndex(of: ".") {
                fileExtension = encoded[encoded.index(after: dot)...]
                encoded = encoded[..<dot]
            }
            guard let bytes = Base64URL.decode(encoded), let decoded = String(validating: bytes, as: UTF8.self), !decoded.isEmpty else {
                throw ImageFailure.badRequest("the source is not valid base64url")
            }
            source = decoded
        }
        guard !source.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw ImageFailure.badRequest("the source holds control characters")
        }
        return (source, fileExtension)
    }

    /// The order for `path`: what to fetch and the recipe to make of it, checked against the
    /// server's limits (400 for a value out of range, 413 for a result over the budget).
    package func order(for path: String) throws(ImageFailure) -> ImageOrder {
        let (recipe, source, delivery) = try parse(path)
        do { try recipe.validate(limits: limits) } catch { throw ImageFailure(recipe: error) }
        return ImageOrder(source: source, recipe: recipe, delivery: delivery)
    }

    /// The info options, the source and the delivery options of an `/info` path (what follows
    /// `/info`): imgproxy's info options (`ImageInfoOptions.apply(_:delivery:)`) instead of
    /// processing options, the signature checked as for image URLs.
    package func infoOrder(for path: String) throws(ImageFailure) -> (options: ImageInfoOptions, source: String, delivery: ImgproxyOptions.Delivery) {
        try Self.readable {
            var segments = try signedSegments(path)
            var options = ImageInfoOptions()
            var delivery = ImgproxyOptions.Delivery()
            while let segment = segments.first, segment.contains(":"), segment != "plain" {
                try options.apply(segment, delivery: &delivery)
                segments = segments.dropFirst()
            }
            let (source, _) = try Self.source(of: segments)
            try options.recipe.validate(limits: limits)
            return (options, source, delivery)
        }
    }

    private func check(signature given: Substring, of signed: Substring) throws(ImageFailure) {
        guard let signature else { return }  // no key: any segment (insecure, _) is accepted
        guard signature.isValid(given, for: signed) else { throw .forbidden("invalid signature") }
    }
}
