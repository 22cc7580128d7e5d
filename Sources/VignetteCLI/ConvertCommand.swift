import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette
import VignetteImgproxy
import VignetteSupport

/// `vignette convert INPUT OUTPUT`: re-encodes one image, upright, in the format OUTPUT's extension names.
struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert one image to the format its output name's extension says (jpg, png, webp, heic, avif, gif, jxl, tif, bmp, ico).",
        discussion: """
            The output is written whole or not at all (a temporary file renamed over it). Exit status: 0 when it \
            is written, 1 when the input cannot be read or decoded or the output cannot be written (one line on \
            standard error, `vignette: INPUT: reason`, naming the path and the system's reason), 2 for a usage error. \
            An ICO holds at most 256x256 pixels: a larger input is refused (make the icon with \
            `vignette thumbnail --size 256 --format ico`).
            """)

    @Argument(help: "The image to read.")
    var input: String

    @Argument(help: "The file to write; its extension picks the format.")
    var output: String

    @Option(help: "Quality 1–100 for JPEG, WebP, HEIC, AVIF and JPEG XL.")
    var quality: Int?

    @Flag(help: "Lossless WebP, HEIC, AVIF or JPEG XL.")
    var lossless = false

    func validate() throws {
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be 1–100, got \(quality)") }
        let format = try outputFormat()
        if lossless, !EncodingFormat.losslessFormats.contains(format) {
            throw ValidationError("--lossless applies to webp, heic, avif and jxl outputs, not \(format)")
        }
    }

    /// The format OUTPUT's extension names, read by the one format-name parser (`ImgproxyOptions.format`).
    func outputFormat() throws -> ImageFormat {
        let ext = URL(fileURLWithPath: output).pathExtension
        do {
            return try ImgproxyOptions.format(Substring(ext))
        } catch {
            throw ValidationError(
                "cannot tell the output format from '\(Console.escaped(output))': use .jpg, .png, .webp, .heic, .avif, .gif, .jxl, .tif, .bmp or .ico")
        }
    }

    /// The output's encoding: the format and default quality an `ImageRecipe` gives (the same as
    /// `vignette thumbnail`'s), lossless when asked.
    func encoding() throws -> EncodingFormat {
        var recipe = ImageRecipe()
        recipe.quality = quality ?? (lossless ? 100 : nil)
        return try recipe.encodingFormat(try outputFormat()).with(lossless: lossless)
    }

    /// The image, upright, re-encoded: a request with no thumbnail and no processor through the
    /// pipeline (`encodedImage(for:as:)`, the path `thumbnail` and the server take), written whole.
    func run() async throws {
        let encoding = try encoding()
        let limits = DecodingLimits.untrusted
        do {
            let pipeline = try ImagePipeline.command(limits: limits)
            let image = try await pipeline.encodedImage(for: ImageRequest(path: input), as: .fixed(encoding)).image
            let output = output
            try await BlockingExecutor.shared.run { try OutputFile.write(image.data, to: output) }
        } catch {
            Console.failed(input, error)
            throw ExitCode(1)
        }
    }
}
