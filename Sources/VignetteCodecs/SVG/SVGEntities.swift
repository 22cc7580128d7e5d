/// The entities of one SVG document, for `SVGSanitizer`: the general entities its DOCTYPE's
/// internal subset declares, read as the DOCTYPE is dropped, and the decoding of references in
/// text and attribute values within a budget of expanded bytes.
struct SVGEntities {
    /// Replacement texts by name; nil for an external entity (it expands to nothing).
    private var declared: [[UInt8]: [UInt8]?] = [:]
    /// Replacement texts already expanded, by name.
    private var expanded: [[UInt8]: [UInt8]] = [:]
    /// Bytes every reference to a declared entity has expanded to so far.
    private var spent = 0
    var budget = 1 << 20
    private static let maxNesting = 16

    // MARK: the DOCTYPE

    /// Reads a DOCTYPE from just after `<!DOCTYPE` to its `>`, keeping the general entities its
    /// internal subset declares; returns the index after it.
    mutating func readDoctype(_ input: [UInt8], from start: Int) throws(ImagingError) -> Int {
        var index = start
        while index < input.count {
            switch input[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index = try Self.skipQuoted(input, index)
            case UInt8(ascii: "["):
                index = try readSubset(input, from: index + 1)
            case UInt8(ascii: ">"):
                return index + 1
            default:
                index += 1
            }
        }
        throw ImagingError(.corruptData, "SVG ends inside its DOCTYPE")
    }

    /// Reads the internal subset up to its `]`; returns the index after it.
    private mutating func readSubset(_ input: [UInt8], from start: Int) throws(ImagingError) -> Int {
        var index = start
        while index < input.count {
            let byte = input[index]
            if SVGSanitizer.isSpace(byte) {
                index += 1
            } else if byte == UInt8(ascii: "]") {
                return index + 1
            } else if byte == UInt8(ascii: "%") {
                // A parameter entity reference: never expanded (a DTD of its own is not read).
                guard let end = input[index...].firstIndex(of: UInt8(ascii: ";")) else { break }
                index = end + 1
            } else if Self.has(input, index, "<!--") {
                guard let end = input[(index + 4)...].firstRange(of: Array("-->".utf8)) else { break }
                index = end.upperBound
            } else if Self.has(input, index, "<?") {
                guard let end = input[(index + 2)...].firstRange(of: Array("?>".utf8)) else { break }
                index = end.upperBound
            } else if Self.has(input, index, "<!") {
                let declarationStart = index
                index += 2
                while index < input.count, input[index] != UInt8(ascii: ">") {
                    if input[index] == UInt8(ascii: "\"") || input[index] == UInt8(ascii: "'") {
                        index = try Self.skipQuoted(input, index)
                    } else {
                        index += 1
                    }
                }
                guard index < input.count else { break }
                index += 1
                if Self.has(input, declarationStart, "<!ENTITY") { declare(Array(input[(declarationStart + 8)..<(index - 1)])) }
            } else {
                throw ImagingError(.corruptData, "SVG's DOCTYPE has a malformed internal subset")
            }
        }
        throw ImagingError(.corruptData, "SVG ends inside its DOCTYPE")
    }

    /// Keeps an `<!ENTITY …>` declaration's general entity (the first declaration of a name wins,
    /// as in XML); parameter entities are left out.
    private mutating func declare(_ body: [UInt8]) {
        var parts = body.split(whereSeparator: SVGSanitizer.isSpace)[...]
        guard let name = parts.popFirst(), name.first != UInt8(ascii: "%"), declared[Array(name)] == nil else { return }
        let rest = body[(name.endIndex)...].drop(while: SVGSanitizer.isSpace)
        if let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let value = rest.dropFirst().prefix { $0 != quote }
            declared[Array(name)] = .some(Array(value))
        } else {
            // SYSTEM or PUBLIC: an external entity, never fetched.
            declared[Array(name)] = .some(nil)
        }
    }

    // MARK: references

    /// `raw` with its references decoded: character references, the five predefined entities, and
    /// declared entities expanded (their text may not hold markup).
    mutating func decode(_ raw: [UInt8], inAttribute: Bool) throws(ImagingError) -> [UInt8] {
        try decode(raw[...], nesting: 0)
    }

    private mutating func decode(_ raw: ArraySlice<UInt8>, nesting: Int) throws(ImagingError) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "&")) else { return Array(raw) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                index += 1
                continue
            }
            guard let end = raw[index...].prefix(64).firstIndex(of: UInt8(ascii: ";")) else {
                throw ImagingError(.corruptData, "SVG has a malformed entity reference")
            }
            let name = Array(raw[(index + 1)..<end])
            index = end + 1
            if name.first == UInt8(ascii: "#") {
                try Self.appendCharacter(name.dropFirst(), to: &out)
            } else if let predefined = Self.predefined[name] {
                out.append(predefined)
            } else {
                out += try expand(name, nesting: nesting)
            }
        }
        return out
    }

    private mutating func expand(_ name: [UInt8], nesting: Int) throws(ImagingError) -> [UInt8] {
        guard let found = declared[name] else {
            throw ImagingError(.corruptData, "SVG refers to an undeclared entity")
        }
        guard let text = found else { return [] }  // external: nothing
        let value: [UInt8]
        if let known = expanded[name] {
            value = known
        } else {
            guard nesting < Self.maxNesting else { throw ImagingError(.corruptData, "SVG's entities refer to each other too deeply (or to themselves)") }
            value = try decode(text[...], nesting: nesting + 1)
            guard !value.contains(UInt8(ascii: "<")) else {
                throw ImagingError(.corruptData, "SVG has an entity holding markup, which is not supported")
            }
            expanded[name] = value
        }
        spent += value.count
        if spent > budget {
            throw ImagingError(.limitExceeded, "SVG's entities expand to more than \(budget) bytes")
        }
        return value
    }

    private static let predefined: [[UInt8]: UInt8] = [
        Array("lt".utf8): UInt8(ascii: "<"), Array("gt".utf8): UInt8(ascii: ">"), Array("amp".utf8): UInt8(ascii: "&"),
        Array("quot".utf8): UInt8(ascii: "\""), Array("apos".utf8): UInt8(ascii: "'"),
    ]

    /// A character reference's digits (`123` or `x7B`) as UTF-8.
    private static func appendCharacter(_ digits: ArraySlice<UInt8>, to out: inout [UInt8]) throws(ImagingError) {
        let text = String(decoding: digits, as: UTF8.self)
        let value = text.first == "x" || text.first == "X" ? UInt32(text.dropFirst(), radix: 16) : UInt32(text, radix: 10)
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else {
            throw ImagingError(.corruptData, "SVG has a malformed character reference")
        }
        out += Array(String(Character(scalar)).utf8)
    }

    private static func skipQuoted(_ input: [UInt8], _ index: Int) throws(ImagingError) -> Int {
        let quote = input[index]
        guard let end = input[(index + 1)...].firstIndex(of: quote) else { throw ImagingError(.corruptData, "SVG ends inside a quoted string") }
        return end + 1
    }

    private static func has(_ input: [UInt8], _ index: Int, _ literal: String) -> Bool {
        let bytes = Array(literal.utf8)
        return index + bytes.count <= input.count && input[index..<(index + bytes.count)].elementsEqual(bytes)
    }
}
