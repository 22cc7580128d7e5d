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

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
