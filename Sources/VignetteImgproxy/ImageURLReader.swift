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
    /// The key and salt pairs a signature may be made with, any one of them; none: signatures are
    /// not checked.
    let signatures: [URLSignature]
    /// Signature segments accepted as they are, unchecked (imgproxy's `IMGPROXY_TRUSTED_SIGNATURES`).
    let trustedSignatures: Set<Substring>
    /// Whether the segment after the signature is only preset names separated by `:`, with no
    /// options of its own (imgproxy's `IMGPROXY_ONLY_PRESETS`).
    let onlyPresets: Bool
    let options: ImgproxyOptions
    /// What every recipe is checked against before any work (a padding over the budget is 413).
    let limits: DecodingLimits

    /// A reader that checks signatures with the hex `signatureKey` and `signatureSalt` (none with no
    /// key: any signature segment is accepted), expands `presets`, and checks every recipe against
    /// `limits`. As in imgproxy's `IMGPROXY_KEY` and `IMGPROXY_SALT`, several pairs are written
    /// comma-separated, the n-th salt with the n-th key, and a signature made with any of them is
    /// accepted; with one salt or none, every key takes it. A signature encodes `signatureSize`
    /// bytes of the digest; `trustedSignatures` pass unchecked; with `onlyPresets` the URL names
    /// presets instead of options (`/SIGNATURE/PRESET[:PRESET…]/SOURCE`).
    /// - Throws: `ImagingError` (`.invalidArgument`) when a key or a salt is not hex, a key is empty,
    ///   the salts are more than one and not as many as the keys, or the size is not 1–32.
    package init(
        signatureKey: String?, signatureSalt: String?, signatureSize: Int = 32, trustedSignatures: [String] = [],
        presets: [String: String], onlyPresets: Bool = false, limits: DecodingLimits
    ) throws(ImagingError) {
        signatures = try signatureKey.map { key throws(ImagingError) in
            try Self.signatures(keys: key, salts: signatureSalt ?? "", size: signatureSize)
        } ?? []
        self.trustedSignatures = Set(trustedSignatures.map { Substring($0) })
        self.onlyPresets = onlyPresets
        options = ImgproxyOptions(presets: presets)
        self.limits = limits
    }

    /// The signers of comma-separated `keys` and `salts`, paired in order (one salt, or none, for all).
    static func signatures(keys: String, salts: String, size: Int) throws(ImagingError) -> [URLSignature] {
        let keys = keys.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmingWhitespace()) }
        var salts = salts.split(separator: ",", omittingEmptySubsequences: false).map { String($0.trimmingWhitespace()) }
        if salts.count == 1 { salts = Array(repeating: salts[0], count: keys.count) }
        guard salts.count == keys.count else {
            throw ImagingError(.invalidArgument, "\(keys.count) signing keys but \(salts.count) salts: each key needs its salt")
        }
        var signatures: [URLSignature] = []
        for (key, salt) in zip(keys, salts) {
            guard let signature = URLSignature(keyHex: key, saltHex: salt, size: size) else {
                throw ImagingError(.invalidArgument, "the signing keys and salts must be hex, no key empty, and the signature size 1–32")
            }
            signatures.append(signature)
        }
        return signatures
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
        if onlyPresets {
            guard let names = segments.first, !names.isEmpty else { throw ImageFailure.badRequest("the URL names no preset") }
            for name in names.split(separator: ":") { try options.applyPreset(String(name), to: &recipe, delivery: &delivery) }
            segments = segments.dropFirst()
        }
        while !onlyPresets, let segment = segments.first, segment.contains(":"), segment != "plain" {
            try options.apply(segment, to: &recipe, delivery: &delivery)
            segments = segments.dropFirst()
        }
        let (source, fileExtension) = try Self.source(of: segments)
        if let fileExtension, !fileExtension.isEmpty { try ImgproxyOptions.applyFormat(fileExtension, to: &recipe) }
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
        guard !signatures.isEmpty else { return }  // no key: any segment (insecure, _) is accepted
        if trustedSignatures.contains(given) { return }
        guard signatures.contains(where: { $0.isValid(given, for: signed) }) else { throw .forbidden("invalid signature") }
    }
}
