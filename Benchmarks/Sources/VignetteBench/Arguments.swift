/// Hand-rolled argument parsing: this target has no ArgumentParser dependency.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `--name value` options and positional arguments, in order.
struct Arguments {
    private(set) var options: [String: String] = [:]
    private(set) var positionals: [String] = []

    /// Parses `arguments`; every `--name` must be in `known` and take a value.
    init(_ arguments: some Sequence<String>, known: Set<String>) throws(UsageError) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2))
                guard known.contains(name) else { throw UsageError("unknown option \(argument)") }
                guard let value = iterator.next() else { throw UsageError("\(argument) needs a value") }
                options[name] = value
            } else {
                positionals.append(argument)
            }
        }
    }

    func required(_ name: String) throws(UsageError) -> String {
        guard let value = options[name] else { throw UsageError("--\(name) is required") }
        return value
    }

    /// A number above zero, or zero too when `allowZero`.
    func double(_ name: String, default fallback: Double, allowZero: Bool = false) throws(UsageError) -> Double {
        guard let text = options[name] else { return fallback }
        guard let value = Double(text), value.isFinite, value > 0 || (allowZero && value == 0) else {
            throw UsageError("--\(name) must be a \(allowZero ? "non-negative" : "positive") number, got \(text)")
        }
        return value
    }
}
