#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import Vignette

/// `--name`: the output file name template, `{name}.{ext}` by default.
///
/// Placeholders: `{name}` (the input's name without its extension; inputs whose names differ only
/// in their extension, `a.gif` and `a.webp`, keep it: `a.gif`, `a.webp`), `{ext}` (the output
/// format's extension), `{format}`, `{width}`, `{height}` (the thumbnail's size).
struct OutputTemplate: ExpressibleByArgument {
    static let placeholders: Set<String> = ["name", "ext", "format", "width", "height"]
    let text: String

    init(_ text: String) { self.text = text }

    init?(argument: String) {
        guard OutputTemplate.isValid(argument) else { return nil }
        text = argument
    }

    /// How `--help` shows the default: the template itself.
    var defaultValueDescription: String { text }

    static func isValid(_ text: String) -> Bool {
        guard !text.isEmpty, !text.contains("/"), text.contains("{name}") else { return false }
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { return false }
            if !placeholders.contains(String(rest[rest.index(after: open)..<close])) { return false }
            rest = rest[rest.index(after: close)...]
        }
        return true
    }

    func fileName(stem: String, format: ImageFormat, size: PixelSize) -> String {
        text.replacing("{name}", with: stem)
            .replacing("{ext}", with: format.fileExtension)
            .replacing("{format}", with: format.rawValue)
            .replacing("{width}", with: String(size.width))
            .replacing("{height}", with: String(size.height))
    }

    /// `{name}` for each input: the name without its extension, or with it when two inputs share one.
    static func stems(for inputs: [String]) -> [String] {
        let names = inputs.map { RemoteInputs.isURL($0) ? RemoteInputs.fileName(of: $0) : URL(fileURLWithPath: $0).lastPathComponent }
        let bare = names.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
        var counts: [String: Int] = [:]
        for stem in bare { counts[stem, default: 0] += 1 }
        return zip(names, bare).map { name, stem in counts[stem, default: 0] > 1 ? name : stem }
    }
}
