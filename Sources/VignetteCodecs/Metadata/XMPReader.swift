#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads an XMP packet (RDF/XML) into imgproxy's shape: one object per namespace prefix, holding
/// that namespace's properties by name — `{"dc": {"creator": ["…"], "format": "image/jpeg"}}`.
/// A `rdf:Seq` or `rdf:Bag` is an array, a `rdf:Alt` its first item (the default language), a
/// structure (`rdf:parseType="Resource"`, a nested `rdf:Description`, or attributes in short form)
/// an object by field name; simple properties are strings, as written.
///
/// The XML is read by a small parser of its own: elements, attributes, text, CDATA and the five
/// predefined and numeric character references; a DOCTYPE (and so any entity definition) is not
/// read, comments and processing instructions are skipped. Bounded: at most 64 levels of nesting
/// and 100 000 elements; a packet it cannot read gives what was read before the break.
package enum XMPReader {
    /// The properties of `packet`, by prefix; an empty object when there are none.
    public static func read(_ packet: Data) -> MetadataValue {
        var parser = Parser(bytes: [UInt8](packet))
        let root = parser.parseDocument()
        var groups: [(prefix: String, fields: [MetadataValue.Field])] = []
        func add(_ qualified: String, _ value: MetadataValue) {
            let (prefix, local) = split(qualified)
            if let index = groups.firstIndex(where: { $0.prefix == prefix }) {
                groups[index].fields.append(MetadataValue.Field(local, value))
            } else {
                groups.append((prefix, [MetadataValue.Field(local, value)]))
            }
        }
        for description in root.descendants(named: "rdf:Description") where description.isTopLevelDescription {
            for (name, value) in description.attributes where isProperty(name) { add(name, .string(value)) }
            for child in description.children { add(child.name, propertyValue(child)) }
        }
        return .object(groups.map { MetadataValue.Field($0.prefix, .object($0.fields)) })
    }

    static func split(_ qualified: String) -> (String, String) {
        guard let colon = qualified.firstIndex(of: ":") else { return ("", qualified) }
        return (String(qualified[..<colon]), String(qualified[qualified.index(after: colon)...]))
    }

    static func isProperty(_ attribute: String) -> Bool {
        !(attribute.hasPrefix("xmlns") || attribute.hasPrefix("rdf:") || attribute.hasPrefix("xml:"))
    }

    /// What a property element holds.
    static func propertyValue(_ element: Element) -> MetadataValue {
        if let resource = element.attributes.first(where: { $0.0 == "rdf:resource" }) { return .string(resource.1) }
        if let container = element.children.first(where: { ["rdf:Seq", "rdf:Bag", "rdf:Alt"].contains($0.name) }) {
            let items = container.children.filter { $0.name == "rdf:li" }.map(propertyValue)
            if container.name == "rdf:Alt" { return items.first ?? .string("") }
            return .array(items)
        }
        let isResource = element.attributes.contains { $0.0 == "rdf:parseType" && $0.1 == "Resource" }
        if let nested = element.children.first(where: { $0.name == "rdf:Description" }), element.children.count == 1 {
            return structure(nested)
        }
        if isResource || !element.children.isEmpty || element.attributes.contains(where: { isProperty($0.0) }) {
            return structure(element)
        }
        return .string(element.text)
    }

    /// A structure's fields, from attributes and child elements, by local name.
    static func structure(_ element: Element) -> MetadataValue {
        var fields: [MetadataValue.Field] = []
        for (name, value) in element.attributes where isProperty(name) { fields.append(MetadataValue.Field(split(name).1, .string(value))) }
        for child in element.children { fields.append(MetadataValue.Field(split(child.name).1, propertyValue(child))) }
        return .object(fields)
    }

    /// An XML element: its qualified name, attributes in order, child elements and text.
    final class Element {
        let name: String
        var attributes: [(String, String)]
        var children: [Element] = []
        var text = ""
        weak var parent: Element?

        init(name: String, attributes: [(String, String)]) {
            self.name = name
            self.attributes = attributes
        }

        func descendants(named wanted: String) -> [Element] {
            var found: [Element] = []
            var stack = [self]
            while let element = stack.popLast() {
                if element.name == wanted { found.append(element) }
                stack.append(contentsOf: element.children.reversed())
            }
            return found
        }

        /// A description directly under `rdf:RDF` (nested ones are structures).
        var isTopLevelDescription: Bool { parent?.name == "rdf:RDF" }
    }

    struct Parser {
        let bytes: [UInt8]
        var at = 0
        var elementCount = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func parseDocument() -> Element {
            let document = Element(name: "", attributes: [])
            var stack = [document]
            while at < bytes.count {
                if bytes[at] != UInt8(ascii: "<") {
                    let start = at
                    while at < bytes.count, bytes[at] != UInt8(ascii: "<") { at += 1 }
                    stack.last?.text += Parser.decoded(bytes[start..<at])
                    continue
                }
                if starts(with: "<!--") {
                    skip(past: "-->")
                } else if starts(with: "<![CDATA[") {
                    let start = at + 9
                    skip(past: "]]>")
                    stack.last?.text += String(decoding: bytes[start..<max(start, at - 3)], as: UTF8.self)
                } else if starts(with: "<?") || starts(with: "<!") {
                    skip(past: ">")
                } else if starts(with: "</") {
                    skip(past: ">")
                    if stack.count > 1 { stack.removeLast() }
                } else {
                    guard let (element, selfClosing) = parseTag(), elementCount < 100_000 else { return document }
                    elementCount += 1
                    element.parent = stack.last
                    stack.last?.children.append(element)
                    if !selfClosing {
                        guard stack.count < 64 else { return document }
                        stack.append(element)
                    }
                }
            }
            return document
        }

        func starts(with text: String) -> Bool {
            let marker = Array(text.utf8)
            return at + marker.count <= bytes.count && bytes[at..<(at + marker.count)].elementsEqual(marker)
        }

        mutating func skip(past text: String) {
            let marker = Array(text.utf8)
            while at < bytes.count {
                if at + marker.count <= bytes.count, bytes[at..<(at + marker.count)].elementsEqual(marker) {
                    at += marker.count
                    return
                }
                at += 1
            }
        }

        static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        mutating func name() -> String {
            let start = at
            while at < bytes.count, !Parser.isSpace(bytes[at]), !"=/>".utf8.contains(bytes[at]) { at += 1 }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }

        mutating func skipSpaces() { while at < bytes.count, Parser.isSpace(bytes[at]) { at += 1 } }

        /// A start tag at `<`: the element and whether it closes itself; nil when the input ends.
        mutating func parseTag() -> (Element, Bool)? {
            at += 1
            let tag = name()
            var attributes: [(String, String)] = []
            while true {
                skipSpaces()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: ">") {
                    at += 1
                    return (Element(name: tag, attributes: attributes), false)
                }
                if bytes[at] == UInt8(ascii: "/") {
                    skip(past: ">")
                    return (Element(name: tag, attributes: attributes), true)
                }
                let attribute = name()
                guard !attribute.isEmpty else { at += 1; continue }
                skipSpaces()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { continue }
                at += 1
                skipSpaces()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { continue }
                let quote = bytes[at]
                at += 1
                let start = at
                while at < bytes.count, bytes[at] != quote { at += 1 }
                attributes.append((attribute, Parser.decoded(bytes[start..<min(at, bytes.count)])))
                at += 1
            }
        }

        /// Text with its character references replaced.
        static func decoded(_ raw: ArraySlice<UInt8>) -> String {
            let text = String(decoding: raw, as: UTF8.self)
            guard text.contains("&") else { return text }
            var out = ""
            var rest = text[...]
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                    out += "&"
                    rest = rest[rest.index(after: amp)...]
                    continue
                }
                let entity = rest[rest.index(after: amp)..<semicolon]
                switch entity {
                case "lt": out += "<"
                case "gt": out += ">"
                case "amp": out += "&"
                case "quot": out += "\""
                case "apos": out += "'"
                default:
                    let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                    if let number, let scalar = Unicode.Scalar(number) { out.unicodeScalars.append(scalar) } else { out += "&" + entity + ";" }
                }
                rest = rest[rest.index(after: semicolon)...]
            }
            return out + rest
        }
    }
}
