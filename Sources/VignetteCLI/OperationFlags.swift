import ArgumentParser
import Vignette
import VignetteImgproxy
import VignetteSupport

/// `vignette thumbnail`'s operations: `--trim` and `--crop` before the resize, `--dpr` and
/// `--gravity` for it; after it, in this order, `--rotate`, `--flip`, `--flop`, `--sharpen`,
/// `--pixelate`, `--background` (flatten), `--extend`, `--padding` and `--watermark`. They are set
/// on the command's `ImageRecipe`, which plans them as it plans a server URL's; the flags that
/// have an imgproxy option read their values with that option's parser.
///
/// Values are read here rather than by ArgumentParser so that a bad one is a single line naming
/// the flag (a `CommandFailure`, exit 2), with no usage text after it.
struct OperationFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Multiply the box by X, a device pixel ratio above 0 and at most 8, before the resize: --size 100 --dpr 2 makes a 200×200 box.", valueName: "X"))
    var dpr: String?

    @Option(help: ArgumentHelp("1. Turn clockwise by this many degrees: a quarter turn (90, 180, 270, -90…) still fits the box (the thumbnail is made in the box turned back); any other angle turns the thumbnail onto a canvas grown to fit it, the corners --background (else transparent where the image has alpha, else white).", valueName: "DEGREES"))
    var rotate: String?

    @Flag(help: "2. Mirror top to bottom.")
    var flip = false

    @Flag(help: "3. Mirror left to right.")
    var flop = false

    @Option(help: ArgumentHelp("4. Sharpen (unsharp mask, vips_sharpen) with this standard deviation in thumbnail pixels, 0–100.", valueName: "SIGMA"))
    var sharpen: String?

    @Option(help: ArgumentHelp("5. Pixelate in blocks of N pixels.", valueName: "N"))
    var pixelate: String?

    @Option(help: ArgumentHelp("6. Flatten transparency onto this colour: RRGGBB (hex) or R,G,B (0–255 each). It is also the fill of --extend.", valueName: "COLOUR"))
    var background: String?

    @Flag(help: "7. Pad the thumbnail to the whole box, centred, filled with --background (black without it).")
    var extend = false

    @Option(help: ArgumentHelp("8. Add pixels around the result, CSS order (top, right, bottom, left), filled with --background.", valueName: "T[:R[:B[:L]]]"))
    var padding: String?

    @Option(help: ArgumentHelp("9. Draw this image over the result: centred at full opacity, or as --watermark-options says.", valueName: "FILE"))
    var watermark: String?

    @Option(help: ArgumentHelp("How --watermark is drawn: opacity (0–1), position (ce, no, so, ea, we, noea, nowe, soea, sowe, or re to tile), X and Y offsets, and its width as a share of the result's. imgproxy's wm.", valueName: "OPACITY[:POSITION[:X:Y[:SCALE]]]"))
    var watermarkOptions: String?

    @Option(help: ArgumentHelp("What a cover crop keeps: no, so, ea, we, noea, nowe, soea, sowe, ce or sm, with X:Y offsets (pixels, or a fraction below 1); fp:X:Y, a focus point (0–1 each); or face (obj:face), the faces --face-model finds. imgproxy's gravity.", valueName: "TYPE[:X:Y]"))
    var gravity: String?

    @Option(help: ArgumentHelp("Before the resize, keep a region of W×H (pixels, a fraction below 1, 0 for the whole side) at a gravity (default --gravity's). The image is then decoded at full size.", valueName: "W:H[:GRAVITY]"))
    var crop: String?

    @Option(help: ArgumentHelp("Before anything else, cut away the background around the image: a threshold (0–255), a colour (RRGGBB; default the top left pixel's) and whether left/right and top/bottom cuts are equal (1 or 0). The image is then decoded at full size.", valueName: "THRESHOLD[:COLOUR[:H:V]]"))
    var trim: String?

    @Option(help: ArgumentHelp("Lower the quality of JPEG, WebP, HEIC and AVIF outputs until each fits in N bytes (or is the smallest it can be).", valueName: "N"))
    var maxBytes: String?

    /// The flags that take an imgproxy option's arguments, with the option that reads them.
    private var imgproxyForms: [(flag: String, option: String, value: String?)] {
        [("--gravity", "g", gravity.map(Self.faceGravity)), ("--crop", "c", crop.map(Self.faceGravity)), ("--trim", "t", trim), ("--padding", "pd", padding),
         ("--pixelate", "pix", pixelate), ("--watermark-options", "wm", watermarkOptions ?? watermark.map { _ in "1:ce" }),
         ("--max-bytes", "mb", maxBytes)]
    }

    /// `face` as the gravity (last) part of a value is imgproxy's `obj:face`.
    private static func faceGravity(_ value: String) -> String {
        var parts = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.last == "face", parts.dropLast().last != "obj" else { return value }
        parts.insert("obj", at: parts.count - 1)
        return parts.joined(separator: ":")
    }

    /// `--watermark`'s image, decoded once within `limits`; nil without the flag.
    func watermarkImage(limits: DecodingLimits) throws(CommandFailure) -> ImageRecipe.WatermarkImage? {
        guard let watermark else { return nil }
        do {
            return try ImageRecipe.WatermarkImage(data: InputFile.read(watermark, limits: limits), limits: limits)
        } catch {
            throw CommandFailure("--watermark: \(error.message)")
        }
    }

    /// Applies the flags given to `recipe`; a bad value is one line naming its flag.
    func apply(to recipe: inout ImageRecipe) throws(CommandFailure) {
        // These read their values as the imgproxy options of the same meaning do: one parser.
        var delivery = ImgproxyOptions.Delivery()
        for (flag, option, value) in imgproxyForms {
            guard let value else { continue }
            do {
                try ImgproxyOptions().apply("\(option):\(value)"[...], to: &recipe, delivery: &delivery)
            } catch {
                throw CommandFailure("\(flag) \(Console.escaped(value)): \(error.message)")
            }
        }
        if flip { recipe.flipVertically = true }
        if flop { recipe.flipHorizontally = true }
        if extend { recipe.extend = true }
        if let dpr {
            guard let value = Double(dpr), value.isFinite, value > 0, ImageRecipe.Ranges.dpr.contains(value) else {
                throw CommandFailure("--dpr must be above 0 and at most \(Int(ImageRecipe.Ranges.dpr.upperBound)), got \(Console.escaped(dpr))")
            }
            recipe.dpr = value
        }
        if let rotate {
            guard let value = Double(rotate), value.isFinite, abs(value) <= ImageRecipe.Ranges.rotation.upperBound else {
                throw CommandFailure("--rotate must be a number of degrees, got \(Console.escaped(rotate))")
            }
            recipe.rotation = value
        }
        if let sharpen {
            guard let value = Double(sharpen), value.isFinite, ImageRecipe.Ranges.sharpen.contains(value) else {
                throw CommandFailure("--sharpen must be 0–100, got \(Console.escaped(sharpen))")
            }
            recipe.sharpen = value
        }
        if let background {
            guard let colour = ImageRecipe.Colour(parsing: background) else {
                throw CommandFailure("--background must be RRGGBB (hex) or R,G,B (0–255 each), got \(Console.escaped(background))")
            }
            recipe.background = colour
        }
    }
}
