import ArgumentParser
import Vignette

/// `vignette compare REFERENCE DISTORTED`: the SSIMULACRA 2.1 score of DISTORTED against
/// REFERENCE, from `SSIMULACRA2Reference` (VignetteCodecs' CVignetteMetrics).
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Print the SSIMULACRA 2.1 score of DISTORTED against REFERENCE (100 identical, 90 visually lossless, 70 high, 50 medium, 30 low quality).",
        discussion: """
            Both images are decoded (with the limits of the other commands), turned upright by their EXIF \
            orientation and converted to 8-bit sRGB; they must then have one size. An image with alpha is \
            blended over dark and light grey and the lower score is printed, as libjxl's ssimulacra2 does. \
            Prints the score with 8 decimals, or with --json one object: {"reference":…,"distorted":…,\
            "width":…,"height":…,"ssimulacra2":…}. Exit status: 0 when it is printed, 1 when an image cannot \
            be read or decoded or the sizes differ (one line on standard error, `vignette: FILE: reason`), \
            2 for a usage error.
            """)

    @Argument(help: "The original image.")
    var reference: String

    @Argument(help: "The image to score against it, of the same size once upright.")
    var distorted: String

    @Flag(help: "Print one JSON object instead of the bare score.")
    var json = false

    func run() throws {
        let decoder = ImageDecoder(limits: .untrusted)
        let prepared: SSIMULACRA2Reference
        let candidate: Image
        do {
            prepared = try SSIMULACRA2Reference(image: try decoder.decode(fileAt: reference).autoOriented())
        } catch {
            Console.failed(reference, error)
            throw ExitCode(1)
        }
        do {
            candidate = try decoder.decode(fileAt: distorted).autoOriented()
        } catch {
            Console.failed(distorted, error)
            throw ExitCode(1)
        }
        let score: Double
        do {
            score = try prepared.score(candidate)
        } catch {
            Console.failed(distorted, error)
            throw ExitCode(1)
        }
        if json {
            let fields: [(String, JSONValue)] = [
                ("reference", .string(reference)), ("distorted", .string(distorted)),
                ("width", .int(prepared.width)), ("height", .int(prepared.height)), ("ssimulacra2", .double(score)),
            ]
            print(JSONValue.object(fields).text)
        } else {
            print(Self.decimal(score))
        }
    }

    /// `value` with 8 decimals, as libjxl's tool prints its score ("78.55478098", "-3.10000000").
    static func decimal(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e9 else { return "\(value)" }
        let scaled = (abs(value) * 1e8).rounded()
        let whole = Int(scaled / 1e8), fraction = Int(scaled.truncatingRemainder(dividingBy: 1e8))
        let digits = String(fraction)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return "\(sign)\(whole).\(String(repeating: "0", count: 8 - digits.count))\(digits)"
    }
}
