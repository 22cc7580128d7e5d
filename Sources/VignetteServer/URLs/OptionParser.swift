import Vignette

/// Reads `name:arg:arg` segments into `ProcessingOptions`, by full name or imgproxy's short name,
/// expanding presets. Every malformed or unknown option is a `ServerFailure` 400 naming it.
struct OptionParser: Sendable {
    let presets: [String: String]

    /// Applies `segment` (one `name:args` path segment) to `options`. `depth` guards against
    /// presets that name each other.
    func apply(_ segment: Substring, to options: inout ProcessingOptions, depth: Int = 0) throws(ServerFailure) {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else { throw .badRequest("an empty option") }
        let args = Array(parts.dropFirst())
        let option = String(name)
        func arity(_ range: ClosedRange<Int>) throws(ServerFailure) {
            guard range.contains(args.count) else { throw .badRequest("\(option): wrong number of arguments") }
        }
        switch option {
        case "resize", "rs":
            try arity(1...5)
            try applyResizingType(args[0], option, to: &options)
            if args.count > 1 { try applySize(Array(args.dropFirst()), option, to: &options) }
        case "size", "s":
            try arity(1...4)
            try applySize(args, option, to: &options)
        case "resizing_type", "rt":
            try arity(1...1)
            try applyResizingType(args[0], option, to: &options)
        case "width", "w":
            try arity(1...1)
            options.width = try side(args[0], option)
        case "height", "h":
            try arity(1...1)
            options.height = try side(args[0], option)
        case "enlarge", "el":
            try arity(1...1)
            options.enlarge = try flag(args[0], option)
        case "extend", "ex":
            try arity(1...2)
            options.extend = try flag(args[0], option)
            if args.count > 1, !args[1].isEmpty { options.gravity = try gravity(args[1], option) }
        case "gravity", "g":
            try arity(1...1)
            options.gravity = try gravity(args[0], option)
        case "quality", "q":
            try arity(1...1)
            let quality = try integer(args[0], option, in: 0...100)
            options.quality = quality == 0 ? nil : quality
        case "format", "f", "ext":
            try arity(1...1)
            options.format = try OptionParser.format(args[0])
        case "blur", "bl":
            try arity(1...1)
            options.blur = try number(args[0], option, in: 0...1000)
        case "sharpen", "sh":
            try arity(1...1)
            options.sharpen = try number(args[0], option, in: 0...100)
        case "rotate", "rot":
            try arity(1...1)
            let angle = try integer(args[0], option, in: 0...360)
            guard angle % 90 == 0 else { throw .badRequest("\(option): the angle must be a multiple of 90") }
            options.rotate = angle % 360
        case "background", "bg":
            options.background = try colour(args, option)
        case "dpr":
            try arity(1...1)
            let dpr = try number(args[0], option, in: 0...8)
            guard dpr > 0 else { throw .badRequest("dpr: must be above 0") }
            options.dpr = dpr
        case "strip_metadata", "sm":
            try arity(1...1)
            options.stripMetadata = try flag(args[0], option)
        case "strip_color_profile", "scp":
            try arity(1...1)
            options.stripColorProfile = try flag(args[0], option)
        case "cachebuster", "cb":
            try arity(1...1)
            options.cacheBuster = String(args[0])
        case "preset", "pr":
            guard !args.isEmpty else { throw .badRequest("\(option): name a preset") }
            for name in args { try applyPreset(String(name), to: &options, depth: depth) }
        default:
            throw .badRequest("unknown option \(OptionParser.shown(option))")
        }
    }

    /// Applies the preset `name` (its options string, `/`-separated).
    func applyPreset(_ name: String, to options: inout ProcessingOptions, depth: Int) throws(ServerFailure) {
        guard let text = presets[name] else { throw .badRequest("unknown preset \(OptionParser.shown(name))") }
        guard depth < 8 else { throw .badRequest("presets nest too deeply") }
        for segment in text.split(separator: "/") { try apply(segment, to: &options, depth: depth + 1) }
    }

    private func applyResizingType(_ text: Substring, _ option: String, to options: inout ProcessingOptions) throws(ServerFailure) {
        guard let type = ProcessingOptions.ResizingType(rawValue: String(text)) else {
            throw .badRequest("\(option): unknown resizing type \(OptionParser.shown(String(text)))")
        }
        options.resizingType = type
    }

    /// width, height, enlarge, extend: empty arguments leave the value as it is.
    private func applySize(_ args: [Substring], _ option: String, to options: inout ProcessingOptions) throws(ServerFailure) {
        if args.count > 0, !args[0].isEmpty { options.width = try side(args[0], option) }
        if args.count > 1, !args[1].isEmpty { options.height = try side(args[1], option) }
        if args.count > 2, !args[2].isEmpty { options.enlarge = try flag(args[2], option) }
        if args.count > 3, !args[3].isEmpty { options.extend = try flag(args[3], option) }
    }

    private func side(_ text: Substring, _ option: String) throws(ServerFailure) -> Int {
        try integer(text, option, in: 0...ProcessingOptions.maxSide)
    }

    private func integer(_ text: Substring, _ option: String, in range: ClosedRange<Int>) throws(ServerFailure) -> Int {
        guard text.utf8.count <= 9, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text) else {
            throw .badRequest("\(option): \(OptionParser.shown(String(text))) is not a whole number")
        }
        guard range.contains(value) else { throw .badRequest("\(option): \(value) is not in \(range.lowerBound)–\(range.upperBound)") }
        return value
    }

    private func number(_ text: Substring, _ option: String, in range: ClosedRange<Double>) throws(ServerFailure) -> Double {
        guard text.utf8.count <= 16, let value = Double(text), value.isFinite else {
            throw .badRequest("\(option): \(OptionParser.shown(String(text))) is not a number")
        }
        guard range.contains(value) else { throw .badRequest("\(option): \(text) is not in \(range.lowerBound)–\(range.upperBound)") }
        return value
    }

    /// imgproxy's booleans: 1, t, true / 0, f, false.
    private func flag(_ text: Substring, _ option: String) throws(ServerFailure) -> Bool {
        switch text {
        case "1", "t", "true": return true
        case "0", "f", "false": return false
        default: throw .badRequest("\(option): \(OptionParser.shown(String(text))) is not a boolean")
        }
    }

    private func gravity(_ text: Substring, _ option: String) throws(ServerFailure) -> ProcessingOptions.Gravity {
        guard let gravity = ProcessingOptions.Gravity(rawValue: String(text)) else {
            throw .badRequest("\(option): unknown gravity \(OptionParser.shown(String(text)))")
        }
        return gravity
    }

    /// `bg:R:G:B` (0–255 each) or `bg:RRGGBB`; `bg:` alone clears it.
    private func colour(_ args: [Substring], _ option: String) throws(ServerFailure) -> ProcessingOptions.Colour? {
        switch args.count {
        case 0: return nil
        case 1 where args[0].isEmpty: return nil
        case 1:
            guard args[0].utf8.count == 6, let bytes = URLSignature.bytes(hex: String(args[0])) else {
                throw .badRequest("\(option): \(OptionParser.shown(String(args[0]))) is not a hex colour")
            }
            return .init(red: bytes[0], green: bytes[1], blue: bytes[2])
        case 3:
            let values = try args.map { (arg: Substring) throws(ServerFailure) -> UInt8 in UInt8(try integer(arg, option, in: 0...255)) }
            return .init(red: values[0], green: values[1], blue: values[2])
        default:
            throw .badRequest("\(option): wrong number of arguments")
        }
    }

    /// The format an extension or `format` names.
    static func format(_ text: Substring) throws(ServerFailure) -> ImageFormat {
        switch text.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "webp": return .webp
        case "avif": return .avif
        case "heic", "heif": return .heic
        case "gif": return .gif
        default: throw ServerFailure(status: 415, "this server cannot write \(shown(String(text)))")
        }
    }

    /// `text` cut short and without control characters, for a reason line.
    static func shown(_ text: String) -> String {
        let clean = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(32).map(Character.init))
        return "\"\(clean)\""
    }
}
