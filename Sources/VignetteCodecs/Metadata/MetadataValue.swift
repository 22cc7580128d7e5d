/// A value read from an image's metadata (EXIF, IPTC, XMP) or computed about it, as JSON: objects
/// keep their keys in the order they were read, so equal inputs print equal text.
package indirect enum MetadataValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([MetadataValue])
    case object([Field])

    /// One key and its value in an object.
    package struct Field: Sendable, Hashable {
        /// The field's name, as the JSON answer spells it.
        public var key: String
        /// The field's value.
        public var value: MetadataValue
        /// A field named `key` holding `value`.
        public init(_ key: String, _ value: MetadataValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object of `pairs`, in their order (`.object` with each pair a `Field`).
    public static func record(_ pairs: [(String, MetadataValue)]) -> MetadataValue {
        .object(pairs.map { Field($0.0, $0.1) })
    }

    /// The value of `key` in an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> MetadataValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.key == key }?.value
    }

    /// Compact JSON text (no spaces); a non-finite number is written as `null`.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let text): MetadataValue.writeQuoted(text, to: &out)
        case .int(let value): out += String(value)
        case .double(let value): out += value.isFinite ? MetadataValue.shortest(value) : "null"
        case .bool(let value): out += value ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, field) in fields.enumerated() {
                if index > 0 { out += "," }
                MetadataValue.writeQuoted(field.key, to: &out)
                out += ":"
                field.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// A double as JSON: integral values without a fraction, others as Swift's shortest form.
    private static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// `text` as a JSON string, quoted and escaped: the one JSON quoter of the package (the
    /// command line's JSON lines use it too).
    public static func quoted(_ text: String) -> String {
        var out = ""
        writeQuoted(text, to: &out)
        return out
    }

    private static func writeQuoted(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20 || c.value == 0x7F:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
