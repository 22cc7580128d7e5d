#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Rewrites an SVG document so that librsvg, which renders it (libvips' `svgload`), reaches
/// nothing outside it and cannot be made to work without bound.
///
/// A bounded streaming pass over the bytes (no XML library), which writes the document again from
/// what it decoded, every value escaped afresh:
/// - dropped: the DOCTYPE (external DTDs, the internal subset), processing instructions other
///   than the XML declaration (`xml-stylesheet`), comments; the elements `script`,
///   `foreignObject`, XInclude's `include` and other active content, with everything inside them;
///   `on*` event attributes and `xml:base`;
/// - kept only when local: `href`/`xlink:href` (a `#fragment`, or a PNG, JPEG or GIF `data:` image
///   within the size limit), CSS `url()` (a `#fragment`; anything else becomes `none`), in `style`
///   attributes, `<style>` elements and presentation attributes; `@import` rules are removed, and
///   CSS with backslash escapes (which could spell either) is dropped whole;
/// - entities: the five predefined ones and character references are decoded; the internal
///   subset's general entities are expanded within `Limits.maxEntityExpansion` bytes (a "billion
///   laughs" file is refused), external ones expand to nothing;
/// - bounded: input bytes, elements, nesting depth, text (one run and all of it).
///
/// Errors: `.unsupportedFormat` for a document whose root is not `svg` (or not UTF-8),
/// `.limitExceeded` past a limit, `.corruptData` for markup that does not parse.
struct SVGSanitizer {
    struct Limits {
        var maxBytes = 32 << 20
        var maxElements = 200_000
        var maxDepth = 256
        /// Bytes all entity references together may expand to.
        var maxEntityExpansion = 1 << 20
        /// Bytes of one `data:` image.
        var maxDataImageBytes = 16 << 20
        /// Bytes of one run of text, and of all text: librsvg lays a run out in time that grows
        /// faster than its length (10,000 characters in one `<text>` took 10 s of CPU).
        var maxTextRun = 4096
        var maxText = 64 << 10
    }

    /// Elements dropped with their content (compared by local name, lowercased).
    static let droppedElements: Set<String> = [
        "script", "foreignobject", "include", "handler", "listener", "iframe", "embed", "object", "audio", "video", "canvas",
    ]

    let input: [UInt8]
    let limits: Limits
    var index = 0
    var output: [UInt8] = []
    var entities = SVGEntities()
    /// The open elements: name, whether dropped, whether a `<style>`.
    var stack: [(name: [UInt8], dropped: Bool, style: Bool)] = []
    var elementCount = 0
    var sawRoot = false
    /// The text of the `<style>` element being read (its text and CDATA, decoded).
    var styleText: [UInt8] = []
    /// Bytes of text kept so far (runs with more than white space).
    var textBytes = 0

    /// The sanitised document, or the error that refuses it.
    static func sanitize(_ data: Data, limits: Limits = Limits()) throws(ImagingError) -> Data {
        guard data.count <= limits.maxBytes else {
            throw ImagingError(.limitExceeded, "SVG is \(data.count) bytes, over the limit of \(limits.maxBytes)")
        }
        var sanitizer = SVGSanitizer(input: [UInt8](data), limits: limits)
        try sanitizer.run()
        return Data(sanitizer.output)
    }

    /// Whether `data` looks like an SVG document libvips' own sniff may miss (a prologue longer
    /// than the kilobyte it reads): markup first, and `<svg` in the first 64 KiB.
    static func looksLikeSVG(_ data: Data) -> Bool {
        let head = data.prefix(64 << 10)
        guard let first = head.first(where: { !isSpace($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }), first == UInt8(ascii: "<") else { return false }
        return head.firstRange(of: Array("<svg".utf8)) != nil
    }

    private init(input: [UInt8], limits: Limits) {
        self.input = input
        self.limits = limits
        entities.budget = limits.maxEntityExpansion
        output.reserveCapacity(input.count)
    }

    mutating func run() throws(ImagingError) {
        if input.starts(with: [0xFE, 0xFF]) || input.starts(with: [0xFF, 0xFE]) {
            throw ImagingError(.unsupportedFormat, "SVG in UTF-16 is not supported")
        }
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if input.starts(with: [0x1F, 0x8B]) { throw ImagingError(.unsupportedFormat, "compressed SVG (svgz) is not supported") }
        while index < input.count {
            if input[index] == UInt8(ascii: "<") {
                try markup()
            } else {
                try text()
            }
        }
        guard sawRoot else { throw ImagingError(.unsupportedFormat, "not an SVG document (no svg element)") }
        guard stack.isEmpty else { throw ImagingError(.corruptData, "SVG ends before its root element does") }
    }

    // MARK: markup

    private mutating func markup() throws(ImagingError) {
        if has("<!--") {
            index = try position(after: "-->", from: index + 4)
        } else if has("<![CDATA[") {
            let end = try position(of: "]]>", from: index + 9)
            let content = Array(input[(index + 9)..<end])
            index = end + 3
            try characterData(content)
        } else if has("<!DOCTYPE") || has("<!doctype") {
            guard !sawRoot else { throw ImagingError(.corruptData, "SVG has a DOCTYPE inside its root element") }
            index = try entities.readDoctype(input, from: index + 9)
        } else if has("<?") {
            let end = try position(after: "?>", from: index + 2)
            // The XML declaration stays (it names the encoding); other instructions go.
            if index == 0 || (index == 3 && input.starts(with: [0xEF, 0xBB, 0xBF])), has("<?xml "), !sawRoot {
                output += input[index..<end]
            }
            index = end
        } else if has("</") {
            try endTag()
        } else {
            try startTag()
        }
    }

    private mutating func startTag() throws(ImagingError) {
        index += 1
        let name = try readName()
        let local = Self.localName(name)
        if stack.isEmpty {
            guard !sawRoot else { throw ImagingError(.corruptData, "SVG has content after its root element") }
            guard local == "svg" else { throw ImagingError(.unsupportedFormat, "not an SVG document (its root element is not svg)") }
            sawRoot = true
        }
        elementCount += 1
        if elementCount > limits.maxElements {
            throw ImagingError(.limitExceeded, "SVG has more than \(limits.maxElements) elements")
        }
        if stack.count >= limits.maxDepth {
            throw ImagingError(.limitExceeded, "SVG nests elements deeper than \(limits.maxDepth)")
        }
        let parentDropped = stack.last.map { $0.dropped || $0.style } ?? false
        let dropped = parentDropped || Self.droppedElements.contains(local)
        var attributes: [(name: [UInt8], value: [UInt8])] = []
        var selfClosing = false
        while true {
            skipSpace()
            guard index < input.count else { throw ImagingError(.corruptData, "SVG ends inside a tag") }
            if input[index] == UInt8(ascii: ">") {
                index += 1
                break
            }
            if has("/>") {
                index += 2
                selfClosing = true
                break
            }
            let attribute = try readName()
            skipSpace()
            guard index < input.count, input[index] == UInt8(ascii: "=") else {
                throw ImagingError(.corruptData, "SVG has an attribute without a value")
            }
            index += 1
            skipSpace()
            guard index < input.count, input[index] == UInt8(ascii: "\"") || input[index] == UInt8(ascii: "'") else {
                throw ImagingError(.corruptData, "SVG has an unquoted attribute value")
            }
            let quote = input[index]
            guard let end = input[(index + 1)...].firstIndex(of: quote) else { throw ImagingError(.corruptData, "SVG ends inside an attribute") }
            let raw = Array(input[(index + 1)..<end])
            index = end + 1
            if !dropped, let value = try kept(attribute: attribute, value: entities.decode(raw, inAttribute: true)) {
                attributes.append((attribute, value))
            }
        }
        if !dropped {
            output.append(UInt8(ascii: "<"))
            output += name
            for (attribute, value) in attributes {
                output.append(UInt8(ascii: " "))
                output += attribute
                output += Array("=\"".utf8)
                Self.escape(value, into: &output, attribute: true)
                output.append(UInt8(ascii: "\""))
            }
            output += selfClosing ? Array("/>".utf8) : [UInt8(ascii: ">")]
        }
        if !selfClosing {
            stack.append((name, dropped, !dropped && local == "style"))
            if !dropped, local == "style" { styleText = [] }
        }
    }

    private mutating func endTag() throws(ImagingError) {
        index += 2
        let name = try readName()
        skipSpace()
        guard index < input.count, input[index] == UInt8(ascii: ">") else { throw ImagingError(.corruptData, "SVG has a malformed end tag") }
        index += 1
        guard let open = stack.popLast(), open.name == name else {
            throw ImagingError(.corruptData, "SVG's end tags do not match its start tags")
        }
        if open.style {
            output += Array("<![CDATA[".utf8)
            // "]]>" cannot end the section early: CSS has no use for it.
            output += SVGCSS.sanitize(styleText).replacing(Array("]]>".utf8), with: Array("]] >".utf8))
            output += Array("]]>".utf8)
            styleText = []
        }
        if !open.dropped {
            output += Array("</".utf8)
            output += name
            output.append(UInt8(ascii: ">"))
        }
    }

    // MARK: text

    private mutating func text() throws(ImagingError) {
        let end = input[index...].firstIndex(of: UInt8(ascii: "<")) ?? input.count
        let raw = Array(input[index..<end])
        index = end
        guard let open = stack.last else {
            // Outside the root: only white space belongs there.
            guard raw.allSatisfy(Self.isSpace) else { throw ImagingError(.corruptData, "SVG has text outside its root element") }
            return
        }
        guard !open.dropped else { return }
        let decoded = try entities.decode(raw, inAttribute: false)
        if open.style {
            styleText += decoded
        } else {
            try countText(decoded)
            Self.escape(decoded, into: &output, attribute: false)
        }
    }

    private mutating func characterData(_ content: [UInt8]) throws(ImagingError) {
        guard let open = stack.last else { throw ImagingError(.corruptData, "SVG has character data outside its root element") }
        guard !open.dropped else { return }
        if open.style {
            styleText += content
        } else {
            try countText(content)
            Self.escape(content, into: &output, attribute: false)
        }
    }

    /// Counts a run of text against `Limits.maxTextRun` and `maxText` (white space alone is free).
    private mutating func countText(_ text: [UInt8]) throws(ImagingError) {
        guard !text.allSatisfy(Self.isSpace) else { return }
        textBytes += text.count
        if text.count > limits.maxTextRun || textBytes > limits.maxText {
            throw ImagingError(
                .limitExceeded, "SVG has more text than \(limits.maxText) bytes, or a run of it longer than \(limits.maxTextRun)")
        }
    }

    // MARK: attributes

    /// The value `attribute` keeps, or nil when it is dropped.
    private func kept(attribute: [UInt8], value: [UInt8]) throws(ImagingError) -> [UInt8]? {
        let name = String(decoding: attribute, as: UTF8.self).lowercased()
        let local = Self.localName(attribute)
        if name.hasPrefix("on") || name == "xml:base" { return nil }
        if name.hasPrefix("xmlns") { return value }
        if local == "href" { return localReference(value) ? value : nil }
        if local == "style" {
            let clean = SVGCSS.sanitize(value)
            return clean.isEmpty ? nil : clean
        }
        return SVGCSS.containsURL(value) ? SVGCSS.sanitize(value) : value
    }

    /// Whether an `href` stays in the document: a `#fragment`, or a bounded raster `data:` image.
    private func localReference(_ value: [UInt8]) -> Bool {
        let trimmed = value.drop(while: Self.isSpace)
        if trimmed.first == UInt8(ascii: "#") { return true }
        let head = String(decoding: trimmed.prefix(24), as: UTF8.self).lowercased()
        let rasters = ["data:image/png", "data:image/jpeg", "data:image/jpg", "data:image/gif"]
        guard rasters.contains(where: { head.hasPrefix($0 + ";") || head.hasPrefix($0 + ",") }) else { return false }
        return trimmed.count <= limits.maxDataImageBytes
    }

    // MARK: lexing

    private func has(_ literal: String) -> Bool {
        let bytes = Array(literal.utf8)
        guard index + bytes.count <= input.count else { return false }
        return input[index..<(index + bytes.count)].elementsEqual(bytes)
    }

    private func position(of literal: String, from start: Int) throws(ImagingError) -> Int {
        guard start <= input.count, let found = input[start...].firstRange(of: Array(literal.utf8)) else {
            throw ImagingError(.corruptData, "SVG ends before \(literal)")
        }
        return found.lowerBound
    }

    private func position(after literal: String, from start: Int) throws(ImagingError) -> Int {
        try position(of: literal, from: start) + literal.utf8.count
    }

    private mutating func skipSpace() {
        while index < input.count, Self.isSpace(input[index]) { index += 1 }
    }

    private mutating func readName() throws(ImagingError) -> [UInt8] {
        let start = index
        while index < input.count, Self.isNameByte(input[index]) { index += 1 }
        guard index > start else { throw ImagingError(.corruptData, "SVG has markup without a name") }
        return Array(input[start..<index])
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."): true
        default: byte >= 0x80
        }
    }

    /// The name after its prefix, lowercased.
    static func localName(_ name: [UInt8]) -> String {
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[(name.index(after: $0))...] } ?? name[...]
        return String(decoding: local, as: UTF8.self).lowercased()
    }

    /// `text` with `&`, `<`, `>` (and `"` in an attribute) written as references.
    static func escape(_ text: [UInt8], into output: inout [UInt8], attribute: Bool) {
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): output += Array("&amp;".utf8)
            case UInt8(ascii: "<"): output += Array("&lt;".utf8)
            case UInt8(ascii: ">"): output += Array("&gt;".utf8)
            case UInt8(ascii: "\"") where attribute: output += Array("&quot;".utf8)
            default: output.append(byte)
            }
        }
    }
}
