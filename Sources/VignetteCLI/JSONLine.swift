import Vignette

/// A JSON value written with its keys in the order given, as the command-line contract lists them.
indirect enum JSONValue {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case object([(String, JSONValue)])
    case array([JSONValue])

    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }

    /// Compact JSON on one line.
    var text: String {
        switch self {
        case .string(let s): return JSONValue.quoted(s)
        case .int(let i): return String(i)
        case .double(let d): return d.isFinite ? String(d) : "null"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .object(let pairs): return "{" + pairs.map { "\(JSONValue.quoted($0.0)):\($0.1.text)" }.joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        }
    }

    private static func quoted(_ s: String) -> String { MetadataValue.quoted(s) }
}
