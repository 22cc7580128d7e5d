import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteCodecs

/// `vignette thumbnail INPUT... --size N|WxH --out DIR`: writes DIR/<name>.<ext> for each input.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make thumbnails of images into a folder.",
        discussion: """
            Writes DIR/<input name without extension>.<format extension> for each input; inputs whose names \
            differ only in their extension (photo.gif, photo.webp) keep it (photo.gif.png, photo.webp.png). A failed input \
            gets one line on standard error and the exit status is 1; the other inputs are still written. \
            No partial output file is ever left behind.
            """)

    @Argument(help: "Image files.")
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The box: N for N×N, or WxH.", valueName: "N|WxH"))
    var size: BoxSize

    @Option(help: ArgumentHelp("The output folder (created when missing).", valueName: "DIR"))
    var out: String

    @Option(help: "How the image fits the box: inside, cover (cropped) or fill (stretched).")
    var fit: ThumbnailOptions.Fit = .inside

    @Option(help: "Output format; auto is PNG for images with alpha and JPEG otherwise.")
    var format: OutputFormatChoice = .auto

    @Option(help: "Quality 1–100 for JPEG, WebP, HEIC and AVIF.")
    var quality: Int?

    @Option(help: ArgumentHelp("Gaussian blur of this standard deviation, in pixels of the thumbnail.", valueName: "SIGMA"))
    var blur: Double?

    @Option(help: "Images to process in parallel (not yet supported).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Keep a disk cache in DIR between runs (not yet supported).", valueName: "DIR"))
    var cache: String?

    @Flag(help: "Print a JSON report instead of nothing.")
    var json = false

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input") }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be 1–100, got \(quality)") }
        if let blur, !(blur.isFinite && blur >= 0 && blur <= 1000) {
            throw ValidationError("--blur must be 0–1000, got \(blur)")
        }
        if jobs != nil { throw ValidationError("--jobs is not yet supported") }
        if cache != nil { throw ValidationError("--cache is not yet supported") }
        for input in inputs where OutputFile.isDirectory(input) {
            throw ValidationError("\(input): directories as inputs are not yet supported")
        }
    }

    func run() throws {
        try OutputFile.makeDirectory(out)
        var options = ThumbnailOptions(width: size.width, height: size.height, fit: fit)
        options.blurSigma = blur ?? 0
        let thumbnailer = Thumbnailer(options: options)
        var report = ThumbnailReport()
        var written: [String: String] = [:]
        let stems = OutputNames.stems(for: inputs)
        for (input, stem) in zip(inputs, stems) {
            let started = ContinuousClock.now
            do {
                let result = try thumbnail(input, stem: stem, with: thumbnailer, written: &written)
                report.add(input: input, result: result, elapsed: ContinuousClock.now - started)
            } catch {
                Console.failed(input, error)
                report.add(input: input, error: error, elapsed: ContinuousClock.now - started)
            }
        }
        if json { print(report.json) }
        if report.failed > 0 { throw ExitCode(1) }
    }

    private func thumbnail(
        _ input: String, stem: String, with thumbnailer: Thumbnailer, written: inout [String: String]
    ) throws -> ThumbnailReport.Written {
        let data = try InputFile.read(input, limits: thumbnailer.limits)
        var chosen: EncodingFormat?
        // Decoding, resizing and encoding stream through libvips in one pass.
        let (encoded, thumbnail) = try thumbnailer.encodedThumbnail(data) { image in
            let encoding = format.encoding(hasAlpha: image.hasAlpha, quality: quality) ?? .jpeg(JPEGOptions())
            chosen = encoding
            return encoding
        }
        let image = thumbnail.image
        let encoding = chosen ?? .jpeg(JPEGOptions())
        let output = URL(fileURLWithPath: out).appendingPathComponent("\(stem).\(encoding.format.fileExtension)").path
        if let earlier = written[output] {
            throw ImagingError(.io, "its output \(output) is already the output of \(earlier)")
        }
        try OutputFile.write(encoded, to: output)
        written[output] = input
        return .init(output: output, width: image.width, height: image.height, bytes: encoded.count)
    }
}
