import Vignette

/// What an image URL asks for, once parsed and checked: the source, as the URL gave it
/// (`local:///…` or an http(s) URL), the recipe its options make, and how the result is delivered.
package struct ImageOrder: Sendable {
    package var source: String
    package var recipe: ImageRecipe
    package var delivery = ImgproxyOptions.Delivery()
}

extension ImageOrder {
    /// `Content-Disposition` for `filename` and `return_attachment`: the name given, or the
    /// source's last path component, with the result's extension; nil when neither is asked for.
    package func contentDisposition(format: ImageFormat?) -> String? {
        guard delivery.filename != nil || delivery.returnAttachment else { return nil }
        var name = delivery.filename ?? ImageOrder.lastComponent(of: source)
        if delivery.filename == nil, let format {
            if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
            name += "." + format.fileExtension
        }
        let safe = String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }.map(Character.init))
        return "\(delivery.returnAttachment ? "attachment" : "inline"); filename=\"\(safe.isEmpty ? "image" : safe)\""
    }

    /// The last path component of a source URL or path, without its query; "image" when empty.
    static func lastComponent(of source: String) -> String {
        let path = source.split(separator: "?", maxSplits: 1).first.map(String.init) ?? source
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty || last.contains(":") ? "image" : last
    }
}
