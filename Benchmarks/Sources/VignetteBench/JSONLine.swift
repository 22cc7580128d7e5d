import Foundation

/// One JSON object on one line, keys in the order given (so the output reads like the peers').
struct JSONLine {
    private var fields: [String] = []

    mutating func add(_ key: String, _ value: String) {
        fields.append("\(Self.quote(key)):\(Self.quote(value))")
    }

    mutating func add(_ key: String, _ value: Int) {
        fields.append("\(Self.quote(key)):\(value)")
    }

    mutating func add(_ key: String, _ value: Double, decimals: Int = 3) {
        fields.append("\(Self.quote(key)):\(String(format: "%.\(decimals)f", value))")
    }

    var text: String { "{" + fields.joined(separator: ",") + "}" }

    /// A JSON string literal, escaped by Foundation's encoder.
    static func quote(_ text: String) -> String {
        guard let data = try? JSONEncoder().encode(text) else { return "\"\"" }
        return String(decoding: data, as: UTF8.self)
    }
}
