import Foundation

/// A strict reader of the Prometheus text exposition format (0.0.4), to check that `/metrics`
/// parses: `# HELP` and `# TYPE` lines, samples `name{label="value",…} value`, label values with
/// their escapes, each family's TYPE before its samples and declared once, histogram buckets with
/// ascending `le` ending in `+Inf`, and `_sum` and `_count` beside them.
struct PrometheusText {
    struct Sample: Equatable {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var types: [String: String] = [:]
    private(set) var samples: [Sample] = []

    init(_ text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else { throw Failure(description: "the text does not end with a newline") }
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            func fail(_ reason: String) -> Failure { Failure(description: "line \(number + 1) \"\(line)\": \(reason)") }
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
                guard parts.count >= 3, parts[0] == "#" else { continue }  // a plain comment
                let name = String(parts[2])
                guard Self.isMetricName(name) else { throw fail("bad metric name") }
                if parts[1] == "TYPE" {
                    guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else {
                        throw fail("bad type")
                    }
                    guard types[name] == nil else { throw fail("TYPE given twice") }
                    guard !samples.contains(where: { Self.family(of: $0.name, types: [name: String(parts[3])]) == name }) else {
                        throw fail("TYPE after the family's samples")
                    }
                    types[name] = String(parts[3])
                }
                continue
            }
            let sample = try Self.sample(Substring(line)) ?? { throw fail("not a sample") }()
            guard Self.family(of: sample.name, types: types) != nil else { throw fail("a sample of no declared family") }
            samples.append(sample)
        }
        try checkHistograms()
    }

    /// The samples of `name` with `labels` among theirs.
    func values(_ name: String, _ labels: [String: String] = [:]) -> [Double] {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }.map(\.value)
    }

    private func checkHistograms() throws {
        for (family, type) in types where type == "histogram" {
            let buckets = samples.filter { $0.name == family + "_bucket" }
            var series: [[String: String]: [(Double, Double)]] = [:]
            for bucket in buckets {
                guard let le = bucket.labels["le"], let bound = le == "+Inf" ? Double.infinity : Double(le) else {
                    throw Failure(description: "\(family): a bucket without a numeric le")
                }
                var rest = bucket.labels
                rest["le"] = nil
                series[rest, default: []].append((bound, bucket.value))
            }
            for (labels, bounds) in series {
                guard bounds.last?.0 == .infinity else { throw Failure(description: "\(family)\(labels): no +Inf bucket last") }
                guard zip(bounds, bounds.dropFirst()).allSatisfy({ $0.0 < $1.0 && $0.1 <= $1.1 }) else {
                    throw Failure(description: "\(family)\(labels): buckets not ascending and cumulative")
                }
                guard values(family + "_count", labels).count == 1, values(family + "_sum", labels).count == 1 else {
                    throw Failure(description: "\(family)\(labels): _count or _sum missing")
                }
                guard values(family + "_count", labels).first == bounds.last?.1 else {
                    throw Failure(description: "\(family)\(labels): _count differs from the +Inf bucket")
                }
            }
        }
    }

    /// The declared family a sample name belongs to (itself, or a histogram's or summary's part).
    static func family(of name: String, types: [String: String]) -> String? {
        if types[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if let type = types[base], type == "histogram" || type == "summary" { return base }
        }
        return nil
    }

    static func isMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first == ":" || ("a"..."z").contains(first) || ("A"..."Z").contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0 == ":" || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }

    /// `name{labels} value [timestamp]`, or nil when the line is not one.
    static func sample(_ line: Substring) throws -> Sample? {
        var rest = line[...]
        let name = rest.prefix { $0 != "{" && $0 != " " }
        guard isMetricName(String(name)) else { return nil }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = rest.prefix { $0 != "=" }
                guard isMetricName(String(label)), !label.contains(":") else { return nil }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else { return nil }
                rest = rest.dropFirst(2)
                var value = ""
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\\" {
                        guard let escaped = rest.first else { return nil }
                        rest = rest.dropFirst()
                        switch escaped {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: return nil
                        }
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        value.append(character)
                    }
                }
                guard closed, labels[String(label)] == nil else { return nil }
                labels[String(label)] = value
                if rest.first == "," { rest = rest.dropFirst() } else if rest.first != "}" { return nil }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { return nil }
        let fields = rest.dropFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(fields.count), let value = number(fields[0]) else { return nil }
        if fields.count == 2, Int64(fields[1]) == nil { return nil }
        return Sample(name: String(name), labels: labels, value: value)
    }

    static func number(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }
}
