import Vignette

extension ImgproxyOptions {
    /// `aq:%method:%target:%min_quality:%max_quality:%allowed_error` (imgproxy's `autoquality`):
    /// `size` (target in bytes), `ssimulacra2` (target a SSIMULACRA2 score) or `none`; empty
    /// arguments keep their values. Other methods (imgproxy Pro's `dssim`, `ml`) are refused,
    /// naming the ones that exist.
    static func applyAutoQuality(_ arguments: Arguments, to recipe: inout ImageRecipe) throws(ImagingError) {
        try arguments.count(1...5)
        guard arguments.has(0) else { throw invalid("\(arguments.option): name a method (none, size, ssimulacra2)") }
        let method = try ImageRecipe.AutoQuality.Method(parsing: arguments.values[0])
        var autoQuality = recipe.autoQuality ?? ImageRecipe.AutoQuality(method: method)
        if autoQuality.method != method {
            // A target means something else under another method.
            autoQuality.method = method
            autoQuality.target = nil
        }
        if arguments.has(1) {
            let range = method == .size ? ImageRecipe.Ranges.autoQualityBytes : ImageRecipe.Ranges.autoQualityScore
            autoQuality.target = try arguments.number(1, in: range)
        }
        if arguments.has(2) { autoQuality.minQuality = try arguments.integer(2, in: ImageRecipe.Ranges.quality) }
        if arguments.has(3) { autoQuality.maxQuality = try arguments.integer(3, in: ImageRecipe.Ranges.quality) }
        if arguments.has(4) { autoQuality.allowedError = try arguments.number(4, in: ImageRecipe.Ranges.autoQualityError) }
        recipe.autoQuality = autoQuality
    }

    /// The format a `format` option or a URL's extension names put in `recipe`: `best` asks for
    /// the best format (`ImageRecipe.bestFormat`, its settings kept when set already), any other
    /// name a fixed one (`format(_:)`).
    public static func applyFormat(_ text: Substring, to recipe: inout ImageRecipe) throws(ImagingError) {
        if text.lowercased() == "best" {
            recipe.format = nil
            recipe.bestFormat = recipe.bestFormat ?? ImageRecipe.BestFormat()
            return
        }
        recipe.format = try format(text)
        recipe.bestFormat = nil
    }
}
