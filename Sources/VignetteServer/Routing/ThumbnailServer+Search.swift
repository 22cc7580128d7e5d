import Vignette

extension ThumbnailServer {
    /// The server's autoquality and best-format settings put in `recipe`: the configured
    /// autoquality for a URL without `aq` when it is on, the settings a URL's `aq` leaves empty
    /// (`AutoQuality.filled(from:)`), and the configured `f:best` settings for a URL that asks
    /// for it.
    package func applySearchDefaults(to recipe: inout ImageRecipe) {
        let configured = configuration.autoQuality
        if let autoQuality = recipe.autoQuality {
            recipe.autoQuality = autoQuality.filled(from: configured)
        } else if configured.isOn {
            recipe.autoQuality = configured
        }
        if recipe.bestFormat != nil { recipe.bestFormat = configuration.bestFormat }
    }
}
