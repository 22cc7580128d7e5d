import Vignette
import VignetteSupport

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

    /// The recipe `text` (options separated by `/`) makes from `base`; options about the
    /// response (`Delivery`) are read and left out.
    public func recipe(_ text: some StringProtocol, base: ImageRecipe = ImageRecipe()) throws(ImagingError) -> ImageRecipe {
        var recipe = base
        var delivery = Delivery()
        for segment in text.split(separator: "/") { try apply(Substring(segment), to: &recipe, delivery: &delivery) }
        return recipe
    }

    /// Applies `segment` (one `name:args` option) to `recipe`, or to `delivery` for the options
    /// about the response. `depth` guards against presets that name each other.
    public func apply(
        _ segment: Substring, to recipe: inout ImageRecipe, delivery: inout Delivery, depth: Int = 0
    ) throws(ImagingError) {
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
            try arguments.count(1...4)
            if arguments.has(0) { recipe.extend = try arguments.flag(0) }
            if arguments.has(1) { recipe.extendGravity = try arguments.canvasGravity(1).anchor }
        case "extend_aspect_ratio", "extend_ar", "exar":
            try arguments.count(1...4)
            if arguments.has(0) { recipe.extendAspectRatio = try arguments.flag(0) }
            if arguments.has(1) { recipe.extendAspectRatioGravity = try arguments.canvasGravity(1).anchor }
        case "gravity", "g":
            try arguments.count(1...3)
            try Self.applyGravity(arguments, to: &recipe)
        case "crop", "c":
            try arguments.count(1...5)
            try Self.applyCrop(arguments, to: &recipe)
        case "trim", "t":
            try arguments.count(1...4)
            let threshold = try arguments.number(0, in: 0...255)
            var colour: ImageRecipe.Colour?
            if arguments.has(1) {
                guard arguments.values[1].utf8.count == 6, let parsed = ImageRecipe.Colour(parsing: arguments.values[1]) else {
                    throw Self.invalid("\(arguments.option): \(Self.shown(String(arguments.values[1]))) is not a hex colour")
                }
                colour = parsed
            }
            recipe.trim = ImageRecipe.Trim(
                threshold: threshold, colour: colour, equalHorizontal: arguments.has(2) ? try arguments.flag(2) : false,
                equalVertical: arguments.has(3) ? try arguments.flag(3) : false)
        case "watermark", "wm":
            try arguments.count(1...5)
            let opacity = try arguments.number(0, in: 0...1)
            var mark = ImageRecipe.Watermark(opacity: opacity)
            if arguments.has(1) { mark.anchor = arguments.values[1] == "re" ? nil : try arguments.canvasGravity(1).anchor }
            if arguments.has(2) { mark.x = try arguments.number(2, in: ImageRecipe.Ranges.offset) }
            if arguments.has(3) { mark.y = try arguments.number(3, in: ImageRecipe.Ranges.offset) }
            if arguments.has(4) { mark.scale = try arguments.number(4, in: 0...1) }
            recipe.watermark = opacity > 0 ? mark : nil
        case "min-width", "min_width", "mw":
            try arguments.count(1...1)
            recipe.minWidth = try arguments.integer(0, in: ImageRecipe.Ranges.side)
        case "min-height", "min_height", "mh":
            try arguments.count(1...1)
            recipe.minHeight = try arguments.integer(0, in: ImageRecipe.Ranges.side)
        case "zoom", "z":
            try arguments.count(1...2)
            recipe.zoomX = try arguments.positive(0, in: ImageRecipe.Ranges.zoom)
            recipe.zoomY = arguments.values.count > 1 ? try arguments.positive(1, in: ImageRecipe.Ranges.zoom) : recipe.zoomX
        case "padding", "pd":
            try arguments.count(1...4)
            try Self.applyPadding(arguments, to: &recipe)
        case "auto_rotate", "ar":
            try arguments.count(1...1)
            recipe.autoRotate = try arguments.flag(0)
        case "flip", "fl":
            try arguments.count(1...2)
            if arguments.has(0) { recipe.flipHorizontally = try arguments.flag(0) }
            if arguments.has(1) { recipe.flipVertically = try arguments.flag(1) }
        case "pixelate", "pix":
            try arguments.count(1...1)
            recipe.pixelate = try arguments.integer(0, in: ImageRecipe.Ranges.pixelate)
        case "format_quality", "fq":
            guard arguments.values.count % 2 == 0, !arguments.values.isEmpty else { throw Self.invalid("\(arguments.option): give format:quality pairs") }
            for index in stride(from: 0, to: arguments.values.count, by: 2) {
                let format = try Self.format(arguments.values[index])
                let quality = try arguments.integer(index + 1, in: 0...100)
                recipe.formatQuality[format] = quality == 0 ? nil : quality
            }
        case "autoquality", "aq":
            try Self.applyAutoQuality(arguments, to: &recipe)
        case "max_bytes", "mb":
            try arguments.count(1...1)
            recipe.maxBytes = try arguments.integer(0, in: ImageRecipe.Ranges.maxBytes)
        case "preserve_hdr", "ph":
            try arguments.count(1...1)
            recipe.keepGainMap = try arguments.flag(0)
        case "keep_copyright", "kcr", "enforce_thumbnail", "eth":
            // Accepted and ignored (docs/imgproxy.md says why): still checked as booleans.
            try arguments.count(1...1)
            _ = try arguments.flag(0)
        case "max_src_resolution", "msr":
            try arguments.count(1...1)
            recipe.limits.maxSourcePixels = try arguments.megapixels(0)
        case "max_src_file_size", "msfs":
            try arguments.count(1...1)
            recipe.limits.maxSourceBytes = try arguments.integer(0, in: 1...Int(Int32.max))
        case "page", "pg":
            try arguments.count(1...1)
            recipe.page = try arguments.integer(0, in: 0...ThumbnailOptions.maximumPage)
        case "video_thumbnail_second", "vts":
            try arguments.count(1...1)
            recipe.videoSecond = try arguments.number(0, in: 0...ThumbnailOptions.maximumVideoSecond)
        case "max_animation_frames", "maf":
            try arguments.count(1...1)
            recipe.limits.maxFrames = try arguments.integer(0, in: 1...1_000_000)
        case "max_animation_frame_resolution", "mafr":
            try arguments.count(1...1)
            recipe.limits.maxFramePixels = try arguments.megapixels(0)
        case "max_result_dimension", "mrd":
            try arguments.count(1...1)
            recipe.limits.maxResultSide = try arguments.integer(0, in: 1...ThumbnailOptions.maximumSide)
        case "expires", "exp", "filename", "fn", "return_attachment", "att", "raw", "skip_processing", "skp":
            try delivery.apply(arguments)
        case "quality", "q":
            try arguments.count(1...1)
            let quality = try arguments.integer(0, in: 0...100)
            recipe.quality = quality == 0 ? nil : quality
        case "format", "f", "ext":
            try arguments.count(1...1)
            try Self.applyFormat(arguments.values[0], to: &recipe)
        case "blur", "bl":
            try arguments.count(1...1)
            recipe.blur = try arguments.number(0, in: ImageRecipe.Ranges.blur)
        case "sharpen", "sh":
            try arguments.count(1...1)
            recipe.sharpen = try arguments.number(0, in: ImageRecipe.Ranges.sharpen)
        case "rotate", "rot":
            try arguments.count(1...1)
            // Any angle (an extension: imgproxy takes multiples of 90 only), wrapped into 0..<360.
            let angle = try arguments.number(0, in: ImageRecipe.Ranges.rotation).truncatingRemainder(dividingBy: 360)
            recipe.rotation = angle < 0 ? angle + 360 : angle + 0
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
            for name in arguments.values { try applyPreset(String(name), to: &recipe, delivery: &delivery, depth: depth) }
        default:
            throw Self.invalid("unknown option \(Self.shown(arguments.option))")
        }
    }

    /// Applies the preset `name` (its options string, `/`-separated).
    public func applyPreset(
        _ name: String, to recipe: inout ImageRecipe, delivery: inout Delivery, depth: Int = 0
    ) throws(ImagingError) {
        guard let text = presets[name] else { throw Self.invalid("unknown preset \(Self.shown(name))") }
        guard depth < 8 else { throw Self.invalid("presets nest too deeply") }
        for segment in text.split(separator: "/") { try apply(segment, to: &recipe, delivery: &delivery, depth: depth + 1) }
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
        case "svg": return .svg
        default: throw ImagingError(.unsupportedFormat, "Vignette cannot write \(shown(String(text)))")
        }
    }

    /// `g:TYPE[:X:Y]`, `g:fp:X:Y`, `g:sm` or `g:obj:face` (imgproxy Pro's object gravity, faces only).
    private static func applyGravity(_ arguments: Arguments, to recipe: inout ImageRecipe) throws(ImagingError) {
        (recipe.gravity, recipe.gravityPosition) = try gravity(arguments, from: 0)
    }

    /// A gravity and its offsets or focus point, from argument `start` on.
    private static func gravity(_ arguments: Arguments, from start: Int) throws(ImagingError) -> (Gravity, CropPosition?) {
        if arguments.values[start] == "obj" {
            // imgproxy Pro's `obj:CLASS…`: Vignette finds faces, not other objects.
            let classes = arguments.values.dropFirst(start + 1)
            guard !classes.isEmpty, classes.allSatisfy({ $0 == "face" }) else {
                let asked = classes.isEmpty ? "every class" : classes.joined(separator: ":")
                throw invalid("\(arguments.option): obj supports only face (asked for \(asked))")
            }
            return (.faces, nil)
        }
        if arguments.values[start] == "fp" {
            guard arguments.values.count == start + 3 else { throw invalid("\(arguments.option): fp takes x and y") }
            let range = ImageRecipe.Ranges.focusPoint
            let point = CropPosition(x: try arguments.number(start + 1, in: range), y: try arguments.number(start + 2, in: range), isFocusPoint: true)
            return (.centre, point)
        }
        let anchor = try arguments.gravity(start).anchor
        let x = arguments.has(start + 1) ? try arguments.number(start + 1, in: ImageRecipe.Ranges.offset) : 0
        let y = arguments.has(start + 2) ? try arguments.number(start + 2, in: ImageRecipe.Ranges.offset) : 0
        return (anchor, x == 0 && y == 0 ? nil : CropPosition(x: x, y: y))
    }

    /// `c:W:H[:GRAVITY…]`: sides in pixels from 1, fractions below 1, the whole side at 0.
    private static func applyCrop(_ arguments: Arguments, to recipe: inout ImageRecipe) throws(ImagingError) {
        let range = 0.0...Double(ThumbnailOptions.maximumSide)
        let width = arguments.has(0) ? try arguments.number(0, in: range) : 0
        let height = arguments.has(1) ? try arguments.number(1, in: range) : 0
        var crop = ImageRecipe.Crop(width: width, height: height)
        if arguments.has(2) { (crop.gravity, crop.position) = try gravity(arguments, from: 2) }
        recipe.crop = width == 0 && height == 0 ? nil : crop
    }

    /// CSS order: a missing right is the top, a missing bottom the top, a missing left the right.
    private static func applyPadding(_ arguments: Arguments, to recipe: inout ImageRecipe) throws(ImagingError) {
        var sides: [Int?] = []
        for index in 0..<4 {
            sides.append(arguments.has(index) ? try arguments.integer(index, in: ImageRecipe.Ranges.padding) : nil)
        }
        guard sides.contains(where: { $0 != nil }) else { throw invalid("\(arguments.option): give at least one side") }
        let top = sides[0] ?? 0, right = sides[1] ?? top, bottom = sides[2] ?? top, left = sides[3] ?? right
        recipe.padding = ImageRecipe.Padding(top: top, right: right, bottom: bottom, left: left)
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
