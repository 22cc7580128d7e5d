import Vignette

/// What an image URL asks for, once parsed and checked: the source, as the URL gave it
/// (`local:///…` or an http(s) URL), and the recipe its options make.
struct ImageOrder: Sendable {
    var source: String
    var recipe: ImageRecipe
}

extension ImageOrder {
    /// The pipeline's encoding: the format the recipe names, else the one negotiated from
    /// `Accept` (then the response varies with `Accept`).
    func encoding(accept: String?) throws(ServerFailure) -> (encoding: OutputEncoding, negotiated: Bool) {
        do {
            return try recipe.encoding(accepting: FormatNegotiation(accept: accept).accepted)
        } catch {
            throw ServerFailure(recipe: error)
        }
    }
}
