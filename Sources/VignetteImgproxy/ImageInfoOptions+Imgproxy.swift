import Vignette

extension ImageInfoOptions {
    /// Applies one `name:args` info option (imgproxy's names, short and long); `expires` goes to
    /// `delivery`. `.invalidArgument` for an unknown option or a value out of range (400).
    public mutating func apply(_ segment: Substring, delivery: inout ImgproxyOptions.Delivery) throws(ImagingError) {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else { throw ImgproxyOptions.invalid("an empty option") }
        let arguments = ImgproxyOptions.Arguments(option: String(name), values: Array(parts.dropFirst()))
        func flag() throws(ImagingError) -> Bool {
            try arguments.count(1...1)
            return try arguments.flag(0)
        }
        switch arguments.option {
        case "size", "s": size = try flag()
        case "format", "f": format = try flag()
        case "dimensions", "d": dimensions = try flag()
        case "exif": exif = try flag()
        case "iptc": iptc = try flag()
        case "xmp": xmp = try flag()
        case "video_meta", "vm": videoMeta = try flag()
        case "colorspace", "cs": colourSpace = try flag()
        case "bands": bands = try flag()
        case "sample_format", "sf": sampleFormat = try flag()
        case "pages_number", "pn": pagesNumber = try flag()
        case "alpha", "a": alpha = try flag()
        case "thumbhash", "thumb_hash", "th": thumbHash = try flag()
        case "detect_objects", "do": detectObjects = try flag()
        case "crop", "c":
            try arguments.count(1...5)
            var scratch = ImageRecipe()
            var ignored = ImgproxyOptions.Delivery()
            try ImgproxyOptions().apply(segment, to: &scratch, delivery: &ignored)
            crop = scratch.crop
        case "palette", "p":
            try arguments.count(1...1)
            let colours = try arguments.integer(0, in: 0...256)
            guard colours == 0 || colours >= 2 else { throw ImgproxyOptions.invalid("palette: 1 is not in 2–256") }
            palette = colours
        case "average", "avg":
            try arguments.count(1...2)
            average = try arguments.flag(0)
            if arguments.has(1) { averageIgnoresTransparent = try arguments.flag(1) }
        case "dominant_colors", "dc":
            try arguments.count(1...2)
            dominantColours = try arguments.flag(0)
            if arguments.has(1) { buildMissingColours = try arguments.flag(1) }
        case "blurhash", "bh":
            try arguments.count(2...2)
            blurHashX = try arguments.integer(0, in: 0...9)
            blurHashY = try arguments.integer(1, in: 0...9)
            if blurHashX == 0 || blurHashY == 0 { (blurHashX, blurHashY) = (0, 0) }
        case "calc_hashsums", "chs":
            var kinds: [String] = []
            for value in arguments.values where !value.isEmpty {
                guard Self.hashsumKinds.contains(String(value)) else {
                    throw ImgproxyOptions.invalid("calc_hashsums: \(ImgproxyOptions.shown(String(value))) is not md5, sha1, sha256 or sha512")
                }
                if !kinds.contains(String(value)) { kinds.append(String(value)) }
            }
            hashsums = kinds
        case "max_src_resolution", "msr", "max_src_file_size", "msfs", "cachebuster", "cb", "expires", "exp":
            try ImgproxyOptions().apply(segment, to: &recipe, delivery: &delivery)
        case "page", "pg":
            // Pages other than the first are not read by /info yet: the first is what it reports.
            try arguments.count(1...1)
            guard try arguments.integer(0, in: 0...1_000_000) == 0 else { throw ImgproxyOptions.invalid("page: /info reads the first page only") }
        default:
            throw ImgproxyOptions.invalid("unknown info option \(ImgproxyOptions.shown(arguments.option))")
        }
    }

}
