import ArgumentParser
import Vignette

/// `vignette thumbnail`'s operations: `--dpr` multiplies the box; after the resize, in this order,
/// `--rotate`, `--flip`, `--flop`, `--sharpen`, `--background` (flatten) and `--extend`. They
/// are set on the command's `ImageRecipe`, which plans them as it plans a server URL's.
///
/// Values are read here rather than by ArgumentParser so that a bad one is a single line naming
/// the flag (a `CommandFailure`, exit 2), with no usage text after it.
struct OperationFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Multiply the box by X, a device pixel ratio above 0 and at most 8, before the resize: --size 100 --dpr 2 makes a 200×200 box.", valueName: "X"))
    var dpr: String?

    @Option(help: ArgumentHelp("1. Turn clockwise by 0, 90, 180 or 270 degrees; the result of a quarter turn still fits the box (the thumbnail is made in the box turned back).", valueName: "DEGREES"))
    var rotate: String?

    @Flag(help: "2. Mirror top to bottom.")
    var flip = false

    @Flag(help: "3. Mirror left to right.")
    var flop = false

    @Option(help: ArgumentHelp("4. Sharpen (unsharp mask, vips_sharpen) with this standard deviation in thumbnail pixels, 0–100.", valueName: "SIGMA"))
    var sharpen: String?

    @Option(help: ArgumentHelp("5. Flatten transparency onto this colour: RRGGBB (hex) or R,G,B (0–255 each). It is also the fill of --extend.", valueName: "COLOUR"))
    var background: String?

    @Flag(help: "6. Pad the thumbnail to the whole box, centred, filled with --background (black without it).")
    var extend = false

    /// Applies the flags given to `recipe`; a bad value is one line naming its flag.
    func apply(to recipe: inout ImageRecipe) throws(CommandFailure) {
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
            guard let value = Int(rotate), [0, 90, 180, 270].contains(value) else {
                throw CommandFailure("--rotate must be 0, 90, 180 or 270, got \(Console.escaped(rotate))")
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
