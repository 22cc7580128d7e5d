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

    func double(_ name: String, default fallback: Double) throws(UsageError) -> Double {
        guard let text = options[name] else { return fallback }
        guard let value = Double(text), value > 0, value.isFinite else {
            throw UsageError("--\(name) must be a positive number, got \(text)")
        }
        return value
    }
}
