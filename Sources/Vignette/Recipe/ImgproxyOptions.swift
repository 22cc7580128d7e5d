/// imgproxy's processing options (`rs:fill:300:200/g:sm/q:75`) read into an `ImageRecipe`: the
/// server's URLs and `vignette thumbnail --options` both parse with it. Options go by full name or
/// imgproxy's short name; omitted arguments keep their values; booleans are `1/t/true` and
/// `0/f/false`; presets (`pr:NAME`) expand to options strings of their own. Every malformed or
/// unknown option is an `.invalidArgument` error naming it; a format Vignette cannot write is
/// `.unsupportedFormat`.
public struct ImgproxyOptions: Sendable {
    /// Named options strings for `preset` (`pr`); `default` is applied before every URL's options.
    public let presets: [String: String]

    /// A parser with `presets`.
    public init(presets: [String: String] = [:]) {
        self.presets = presets
    }

    /// The recipe `text` (options separated by `/`) makes from `base`.
    public func recipe(_ text: some StringProtocol, base: ImageRecipe = ImageRecipe()) throws(ImagingError) -> ImageRecipe {
        var recipe = base
        for segment in text.split(separator: "/") { try apply(Substring(segment), to: &recipe) }
        return recipe
    }

    /// Applies `segment` (one `name:args` option) to `recipe`. `depth` guards against presets
    /// that name each other.
    public func apply(_ segment: Substring, to recipe: inout ImageRecipe, depth: Int = 0) throws(ImagingError) {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else { throw Self.invalid("an empty option") }
        let arguments = Arguments(option: String(name), values: Array(parts.dropFirst()))
        switch arguments.option {
        case "resize", "rs":
            try arguments.count(1...5)
            try Self.applyResizingType(arguments, 0, to: &recipe)
            try Self.applySize(arguments, from: 1, to: &recipe)
        case "size", "s":
            try arguments.count(1...4)
            try Self.applySize(arguments, from: 0, to: &recipe)
        case "resizing_type", "rt":
            try arguments.count(1...1)
            try Self.applyResizingType(arguments, 0, to: &recipe)
        case "width", "w":
            try arguments.count(1...1)
            recipe.width = try arguments.integer(0, in: ImageRecipe.Ranges.side)
        case "height", "h":
            try arguments.count(1...1)
            recipe.height = try arguments.integer(0, in: ImageRecipe.Ranges.side)
        case "enlarge", "el":
            try arguments.count(1...1)
            recipe.enlarge = try arguments.flag(0)
        case "extend", "ex":
            try arguments.count(1...2)
            recipe.extend = try arguments.flag(0)
            if arguments.has(1) { recipe.extendGravity = try arguments.gravity(1).canvas }
        case "gravity", "g":
            try arguments.count(1...1)
            recipe.gravity = try arguments.gravity(0).anchor
        case "quality", "q":
            try arguments.count(1...1)
            let quality = try arguments.integer(0, in: 0...100)
            recipe.quality = quality == 0 ? nil : quality
        case "format", "f", "ext":
            try arguments.count(1...1)
            recipe.format = try Self.format(arguments.values[0])
        case "blur", "bl":
            try arguments.count(1...1)
            recipe.blur = try arguments.number(0, in: ImageRecipe.Ranges.blur)
        case "sharpen", "sh":
            try arguments.count(1...1)
            recipe.sharpen = try arguments.number(0, in: ImageRecipe.Ranges.sharpen)
        case "rotate", "rot":
            try arguments.count(1...1)
            let angle = try arguments.integer(0, in: 0...360)
            guard angle % 90 == 0 else { throw Self.invalid("\(arguments.option): the angle must be a multiple of 90") }
            recipe.rotation = angle % 360
        case "background", "bg":
            recipe.background = try arguments.colour()
        case "dpr":
            try arguments.count(1...1)
            let dpr = try arguments.number(0, in: ImageRecipe.Ranges.dpr)
            guard dpr > 0 else { throw Self.invalid("dpr: must be above 0") }
            recipe.dpr = dpr
        case "strip_metadata", "sm":
            try arguments.count(1...1)
            recipe.stripMetadata = try arguments.flag(0)
        case "strip_color_profile", "scp":
            try arguments.count(1...1)
            recipe.stripColourProfile = try arguments.flag(0)
        case "cachebuster", "cb":
            try arguments.count(1...1)
            recipe.cacheBuster = String(arguments.values[0])
        case "preset", "pr":
            guard !arguments.values.isEmpty else { throw Self.invalid("\(arguments.option): name a preset") }
            for name in arguments.values { try applyPreset(String(name), to: &recipe, depth: depth) }
        default:
            throw Self.invalid("unknown option \(Self.shown(arguments.option))")
        }
    }

    /// Applies the preset `name` (its options string, `/`-separated).
    public func applyPreset(_ name: String, to recipe: inout ImageRecipe, depth: Int = 0) throws(ImagingError) {
        guard let text = presets[name] else { throw Self.invalid("unknown preset \(Self.shown(name))") }
        guard depth < 8 else { throw Self.invalid("presets nest too deeply") }
        for segment in text.split(separator: "/") { try apply(segment, to: &recipe, depth: depth + 1) }
    }

    /// The format a `format` option or a URL's extension names; `.unsupportedFormat` for one
    /// Vignette does not write.
    public static func format(_ text: Substring) throws(ImagingError) -> ImageFormat {
        switch text.lowercased() {
        case "jpg", "jpeg": return .jpeg
        case "png": return .png
        case "webp": return .webp
        case "avif": return .avif
        case "heic", "heif": return .heic
        case "gif": return .gif
        case "jxl": return .jxl
        case "tiff", "tif": return .tiff
        case "bmp": return .bmp
        case "ico": return .ico
        default: throw ImagingError(.unsupportedFormat, "Vignette cannot write \(shown(String(text)))")
        }
    }

    private static func applyResizingType(_ arguments: Arguments, _ index: Int, to recipe: inout ImageRecipe) throws(ImagingError) {
        guard arguments.has(index) else { return }
        let text = String(arguments.values[index])
        guard let type = ImageRecipe.ResizingType(rawValue: text) else {
            throw invalid("\(arguments.option): unknown resizing type \(shown(text))")
        }
        recipe.resizingType = type
    }

    /// width, height, enlarge, extend from `start` on: empty arguments leave the value as it is.
    private static func applySize(_ arguments: Arguments, from start: Int, to recipe: inout ImageRecipe) throws(ImagingError) {
        if arguments.has(start) { recipe.width = try arguments.integer(start, in: ImageRecipe.Ranges.side) }
        if arguments.has(start + 1) { recipe.height = try arguments.integer(start + 1, in: ImageRecipe.Ranges.side) }
        if arguments.has(start + 2) { recipe.enlarge = try arguments.flag(start + 2) }
        if arguments.has(start + 3) { recipe.extend = try arguments.flag(start + 3) }
    }

    static func invalid(_ message: String) -> ImagingError { ImagingError(.invalidArgument, message) }

    /// `text` cut short and without control characters, for an error message.
    public static func shown(_ text: String) -> String {
        let clean = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(32).map(Character.init))
        return "\"\(clean)\""
    }
}
