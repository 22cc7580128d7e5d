#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization
import Vignette

/// Makes one input's thumbnail file: name it from the header, skip it when asked, take it from
/// the disk cache when it is there, else decode, resize and encode in one libvips pass.
struct ThumbnailJob: Sendable {
    struct Outcome: Sendable {
        let output: String
        let width: Int
        let height: Int
        let bytes: Int
        var cached = false
        var skipped = false
    }

    let thumbnailer: Thumbnailer
    let format: OutputFormatChoice
    let alphaFormat: AlphaFormatChoice
    let quality: Int?
    let keepMetadata: Bool
    let folder: String
    let template: OutputTemplate
    let cache: DataCache?
    let skipExisting: Bool
    let claims: OutputClaims
    /// Loads http(s) inputs; nil when there are none.
    let remote: RemoteInputs?

    func run(input: String, stem: String) throws -> Outcome {
        let data = try read(input)
        // With --skip-existing the output's name must be known before any work: read the header.
        if skipExisting {
            let info = try ImageDecoder(limits: thumbnailer.limits).probe(data)
            let output = try claim(input: input, stem: stem, encoding: encoding(hasAlpha: info.hasAlpha),
                                   size: thumbnailer.outputSize(for: info))
            if OutputFile.exists(output) {
                let existing = try? ImageDecoder().probe(fileAt: output)
                return Outcome(output: output, width: existing?.width ?? 0, height: existing?.height ?? 0,
                               bytes: OutputFile.size(output), skipped: true)
            }
            return try make(data, input: input, output: output)
        }
        return try make(data, input: input, output: nil) { encoding, size in
            try claim(input: input, stem: stem, encoding: encoding, size: size)
        }
    }

    /// The thumbnail of `data` written to `output`, or to the path `name` gives once the
    /// thumbnail's format and size are known; from the disk cache when it holds it.
    private func make(
        _ data: Data, input: String, output: String?,
        name: ((EncodingFormat, PixelSize) throws -> String)? = nil
    ) throws -> Outcome {
        let key = cache == nil ? nil : cacheKey(for: data)
        if let cache, let key, let bytes = cache.data(for: key) {
            let info = try ImageDecoder().probe(bytes)
            let size = PixelSize(width: info.width, height: info.height)
            let path = try output ?? name?(encoding(for: info.format, hasAlpha: info.hasAlpha), size) ?? ""
            try OutputFile.write(bytes, to: path)
            return Outcome(output: path, width: size.width, height: size.height, bytes: bytes.count, cached: true)
        }
        let (encoded, thumbnail) = try thumbnailer.encodedThumbnail(data) { image in encoding(hasAlpha: image.hasAlpha) }
        let size = PixelSize(width: thumbnail.image.width, height: thumbnail.image.height)
        let path = try output ?? name?(encoding(hasAlpha: thumbnail.image.hasAlpha), size) ?? ""
        try OutputFile.write(encoded, to: path)
        if let cache, let key { cache.storeData(encoded, for: key) }
        return Outcome(output: path, width: size.width, height: size.height, bytes: encoded.count)
    }

    private func read(_ input: String) throws -> Data {
        if let remote, RemoteInputs.isURL(input) { return try remote.data(at: input) }
        return try InputFile.read(input, limits: thumbnailer.limits)
    }

    private func encoding(hasAlpha: Bool) -> EncodingFormat {
        format.encoding(hasAlpha: hasAlpha, alphaFormat: alphaFormat, quality: quality, keepMetadata: keepMetadata)
    }

    /// The encoding a cached output was made with (its format is what the bytes say).
    private func encoding(for format: ImageFormat, hasAlpha: Bool) -> EncodingFormat {
        EncodingFormat.default(for: format) ?? encoding(hasAlpha: hasAlpha)
    }

    /// The output path for this input, reserved for it in this run.
    private func claim(input: String, stem: String, encoding: EncodingFormat, size: PixelSize) throws -> String {
        let output = URL(fileURLWithPath: folder)
            .appendingPathComponent(template.fileName(stem: stem, format: encoding.format, size: size)).path
        if let earlier = claims.claim(output, for: input) {
            throw ImagingError(.io, "its output \(output) is already the output of \(earlier)")
        }
        return output
    }

    /// Same input bytes and same options: the same output. The key holds the bytes' SHA-256 (so
    /// an input changed in place is made again) and every option that shapes the output.
    func cacheKey(for data: Data) -> String {
        let options = thumbnailer.options
        let parts: [String] = [
            "vignette-thumbnail-v1",
            DataCache.digest(of: data),
            "\(options.width)x\(options.height)", options.fit.rawValue, options.crop.rawValue,
            "blur \(options.blurSigma)", format.rawValue, alphaFormat.rawValue, "q\(quality.map(String.init) ?? "-")",
            keepMetadata ? "keep" : "strip",
        ]
        return parts.joined(separator: "|")
    }
}

/// Output paths already taken in this run, so that no input overwrites another's output.
final class OutputClaims: Sendable {
    private let taken = Mutex<[String: String]>([:])

    /// nil when `output` was free (it is now `input`'s), else the input that has it.
    func claim(_ output: String, for input: String) -> String? {
        taken.withLock { taken in
            if let earlier = taken[output] { return earlier }
            taken[output] = input
            return nil
        }
    }
}
