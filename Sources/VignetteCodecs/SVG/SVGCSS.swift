/// CSS in an SVG document (a `<style>` element, a `style` attribute, a presentation attribute's
/// `url()`), made local for `SVGSanitizer`: comments and `@import` rules removed, every `url()`
/// other than a `#fragment` replaced by `none`. CSS with a backslash is dropped whole: its escapes
/// could spell `url(` or `@import` in a way a plain scan would not see.
enum SVGCSS {
    static func sanitize(_ css: [UInt8]) -> [UInt8] {
        guard !css.contains(UInt8(ascii: "\\")) else { return [] }
        return replacingURLs(removingImports(removingComments(css)))
    }

    /// Whether `value` has a `url(` (in any case).
    static func containsURL(_ value: [UInt8]) -> Bool {
        lowered(value).firstRange(of: Array("url(".utf8)) != nil
    }

    private static func removingComments(_ css: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < css.count {
            if css[index] == UInt8(ascii: "/"), index + 1 < css.count, css[index + 1] == UInt8(ascii: "*") {
                guard let end = css[(index + 2)...].firstRange(of: Array("*/".utf8)) else { break }
                index = end.upperBound
                out.append(UInt8(ascii: " "))
            } else {
                out.append(css[index])
                index += 1
            }
        }
        return out
    }

    /// Without any `@import` rule (to its `;`, or to the end).
    private static func removingImports(_ css: [UInt8]) -> [UInt8] {
        let lower = lowered(css)
        var out: [UInt8] = []
        var index = 0
        while let found = lower[index...].firstRange(of: Array("@import".utf8)) {
            out += css[index..<found.lowerBound]
            index = css[found.upperBound...].firstIndex(of: UInt8(ascii: ";")).map { $0 + 1 } ?? css.count
        }
        out += css[index...]
        return out
    }

    /// Every `url(…)` whose argument is not a `#fragment` replaced by `none`.
    private static func replacingURLs(_ css: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        let lower = lowered(css)
        var index = 0
        while index < css.count {
            guard let found = lower[index...].firstRange(of: Array("url(".utf8)) else {
                out += css[index...]
                break
            }
            out += css[index..<found.lowerBound]
            // The argument, quoted or not, to its closing parenthesis.
            var end = found.upperBound
            while end < css.count, SVGSanitizer.isSpace(css[end]) { end += 1 }
            var argumentStart = end
            if end < css.count, css[end] == UInt8(ascii: "\"") || css[end] == UInt8(ascii: "'") {
                let quote = css[end]
                argumentStart = end + 1
                end = css[argumentStart...].firstIndex(of: quote) ?? css.count
            }
            let local = argumentStart < css.count && css[argumentStart] == UInt8(ascii: "#")
            let close = end < css.count ? (css[end...].firstIndex(of: UInt8(ascii: ")")) ?? css.count) : css.count
            if local, close < css.count {
                out += css[found.lowerBound...close]
            } else {
                out += Array("none".utf8)
            }
            index = min(css.count, close + 1)
        }
        return out
    }

    private static func lowered(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
    }
}
