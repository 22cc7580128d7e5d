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

    func run(input: String, stem: String) throws -> Outcome {
        let data = try InputFile.read(input, limits: thumbnailer.limits)
        let info = try ImageDecoder(limits: thumbnailer.limits).probe(data)
        let encoding = format.encoding(hasAlpha: info.hasAlpha, alphaFormat: alphaFormat, quality: quality,
                                       keepMetadata: keepMetadata)
        let size = thumbnailer.outputSize(for: info)
        let output = URL(fileURLWithPath: folder)
            .appendingPathComponent(template.fileName(stem: stem, format: encoding.format, size: size)).path
        if let earlier = claims.claim(output, for: input) {
            throw ImagingError(.io, "its output \(output) is already the output of \(earlier)")
        }
        if skipExisting, OutputFile.exists(output) {
            let existing = (try? ImageDecoder().probe(fileAt: output)).map { PixelSize(width: $0.width, height: $0.height) } ?? size
            return Outcome(output: output, width: existing.width, height: existing.height,
                           bytes: OutputFile.size(output), skipped: true)
        }
        let key = cache == nil ? nil : cacheKey(for: data)
        if let cache, let key, let bytes = cache.data(for: key) {
            try OutputFile.write(bytes, to: output)
            return Outcome(output: output, width: size.width, height: size.height, bytes: bytes.count, cached: true)
        }
        let (encoded, thumbnail) = try thumbnailer.encodedThumbnail(data, as: encoding)
        try OutputFile.write(encoded, to: output)
        if let cache, let key { cache.storeData(encoded, for: key) }
        return Outcome(output: output, width: thumbnail.image.width, height: thumbnail.image.height, bytes: encoded.count)
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
