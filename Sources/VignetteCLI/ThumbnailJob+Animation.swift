#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Vignette

/// Animated inputs: with `--frames all` (the default) an animated GIF or WebP file keeps every
/// frame, its delays and loop count, written as animated WebP (`--format auto` or `webp`) or GIF
/// (`--format gif`). The thumbnail is made by `Thumbnailer.animatedThumbnail` directly, not
/// through the pipeline, so `--cache` does not hold animated results; the operations' processors
/// run on every frame (`Animation.processed(by:limits:)`). Other formats, `--frames first` and
/// stills take the pipeline's still route.
extension ThumbnailJob {
    /// The format an animated input is written in, or nil when `--format` asks for one without
    /// animation (the first frame is then written by the still route).
    var animatedEncoding: EncodingFormat? {
        // A trim or a crop of the source is made on a still (the whole first frame).
        guard recipe.frames == .all, !plan.decodesWhole else { return nil }
        switch recipe.format {
        case nil, .webp: return try? recipe.encodingFormat(.webp)
        case .gif: return try? recipe.encodingFormat(.gif)
        default: return nil
        }
    }

    /// The outcome for `input` when it is an animated GIF or WebP to be kept animated; nil for
    /// anything else (which then goes through the pipeline as before). `read` is the input's bytes
    /// when they were read already (a download, or a file under --skip-existing); other files are
    /// read here only when their first bytes look like an animation.
    func animatedOutcome(input: String, stem: String, read: Data?) throws -> Outcome? {
        guard let encoding = animatedEncoding else { return nil }
        let data: Data
        if let read {
            guard Animation.mightBeAnimated(prefix: read.prefix(21)) else { return nil }
            data = read
        } else {
            guard !RemoteInputs.isURL(input), Self.mightBeAnimated(path: input) else { return nil }
            data = try InputFile.read(input, limits: limits)
        }
        let info = try ImageDecoder(limits: limits).probe(data)
        guard info.pages > 1, Animation.isAnimatable(info.format) else { return nil }
        let thumbnailer = Thumbnailer(options: thumbnail, limits: limits)
        let output = URL(fileURLWithPath: folder)
            .appendingPathComponent(template.fileName(
                stem: stem, format: encoding.format, size: plan.outputSize(forThumbnailOf: thumbnailer.outputSize(for: info)))).path
        if let earlier = claims.claim(output, for: input) {
            throw ImagingError(.io, "its output \(output) is already the output of \(earlier)")
        }
        if skipExisting, OutputFile.exists(output) {
            let existing = try? ImageDecoder().probe(fileAt: output)
            return Outcome(output: output, width: existing?.width ?? 0, height: existing?.height ?? 0,
                           bytes: OutputFile.size(output), skipped: true)
        }
        let animation = try thumbnailer.animatedThumbnail(data).animation.processed(by: plan.processors, limits: limits)
        let bytes = try ImageEncoder.encode(animation, as: encoding, limits: limits)
        try OutputFile.write(bytes, to: output)
        var outcome = Outcome(output: output, width: animation.width, height: animation.height, bytes: bytes.count)
        if let placeholder { outcome.placeholder = (placeholder, try animation.frames[0].placeholder(placeholder)) }
        return outcome
    }

    /// Whether the regular file at `path` starts like a GIF or like a WebP whose VP8X header sets
    /// the animation flag, from its first 21 bytes; false for anything else (and for pipes, which
    /// must not be read twice).
    static func mightBeAnimated(path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 21)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        return Animation.mightBeAnimated(prefix: Data(bytes.prefix(count)))
    }
}
