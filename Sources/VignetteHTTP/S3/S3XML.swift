/// The little of XML that S3's answers need, without an XML parser (FoundationEssentials has
/// none): the text of elements by name, `<Name>text</Name>` with no attributes, as S3, MinIO, Ceph
/// and Google write them. The text's entities (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#N;`
/// `&#xN;`) are decoded; an element whose text has a broken one is left out.
enum S3XML {
    /// The text of every `<name>` element, in document order.
    static func elements(_ name: String, in bytes: [UInt8]) -> [String] {
        let open = Array("<\(name)>".utf8), close = Array("</\(name)>".utf8)
        var found: [String] = []
        var position = 0
        while let start = index(of: open, in: bytes, from: position) {
            let contentStart = start + open.count
            guard let end = index(of: close, in: bytes, from: contentStart) else { break }
            if let text = decodeEntities(bytes[contentStart..<end]) { found.append(text) }
            position = end + close.count
        }
        return found
    }

    /// The text of the first `<name>` element.
    static func firstElement(_ name: String, in bytes: [UInt8]) -> String? {
        elements(name, in: bytes).first
    }

    private static func index(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var candidate = start
        while candidate <= bytes.count - needle.count {
            if bytes[candidate] == needle[0] && bytes[candidate..<candidate + needle.count].elementsEqual(needle) { return candidate }
            candidate += 1
        }
        return nil
    }

    /// `text` with its entities decoded; nil for an unknown or broken entity, a stray `<`, or bytes
    /// that are not UTF-8.
    static func decodeEntities(_ text: ArraySlice<UInt8>) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: "<") { return nil }
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            guard let semicolon = text[index...].firstIndex(of: UInt8(ascii: ";")), semicolon - index <= 10 else { return nil }
            let entity = String(decoding: text[(index + 1)..<semicolon], as: UTF8.self)
            switch entity {
            case "amp": output.append(UInt8(ascii: "&"))
            case "lt": output.append(UInt8(ascii: "<"))
            case "gt": output.append(UInt8(ascii: ">"))
            case "quot": output.append(UInt8(ascii: "\""))
            case "apos": output.append(UInt8(ascii: "'"))
            default:
                let number: UInt32?
                if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                    number = UInt32(entity.dropFirst(2), radix: 16)
                } else if entity.hasPrefix("#") {
                    number = UInt32(entity.dropFirst(), radix: 10)
                } else {
                    number = nil
                }
                guard let number, let scalar = Unicode.Scalar(number) else { return nil }
                output += Array(String(Character(scalar)).utf8)
            }
            index = semicolon + 1
        }
        return String(validating: output, as: UTF8.self)
    }
}
