extension OutputEncoding {
    /// The search an encoding makes its result by (`AutoQualitySearch`): the quality of each
    /// lossy format by `autoQuality`, and with `best` the format too, the smallest of
    /// `candidates` (with `lossless` as well for simple images).
    package struct Search: Sendable {
        /// The quality search; nil (or method `none`) writes each format at its set quality.
        package var autoQuality: ImageRecipe.AutoQuality?
        /// `f:best`'s settings; nil writes the format `format(for:)` picks.
        package var best: ImageRecipe.BestFormat?
        /// The formats `best` tries on every image, at the recipe's settings.
        package var candidates: [EncodingFormat] = []
        /// The lossless formats `best` tries as well on simple images.
        package var lossless: [EncodingFormat] = []

        /// What the search is called in cache keys: every setting that changes its result.
        var id: String {
            var parts: [String] = []
            if let aq = autoQuality, aq.isOn {
                var text = "aq(\(aq.method.rawValue),t\(aq.effectiveTarget),e\(aq.effectiveAllowedError)"
                if let min = aq.minQuality { text += ",min\(min)" }
                if let max = aq.maxQuality { text += ",max\(max)" }
                for (format, quality) in aq.formatMinQuality.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { text += ",min:\(format.rawValue)=\(quality)" }
                for (format, quality) in aq.formatMaxQuality.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { text += ",max:\(format.rawValue)=\(quality)" }
                if aq.maxPixels > 0 { text += ",px\(aq.maxPixels)" }
                parts.append(text + ")")
            }
            if let best {
                let tried = (candidates + lossless).map(\.identifier).joined(separator: ",")
                parts.append("best(\(tried);c\(best.complexityThreshold);px\(best.maxPixels)\(best.passesSourceThrough ? ";source" : ""))")
            }
            return parts.joined(separator: "|")
        }
    }

    /// This encoding, its result made by `search` (the id says so).
    package func searching(_ search: Search) -> OutputEncoding {
        var encoding = self
        encoding.search = search
        return encoding
    }
}

extension ImageRecipe {
    /// `encoding` with this recipe's autoquality and best-format search, when it asks for one;
    /// `accepting` adds AVIF, WebP and JPEG XL to `BestFormat.formats`. An animation under
    /// `f:best` is WebP when allowed, else GIF: never AVIF.
    func searching(_ encoding: OutputEncoding, accepting: Set<ImageFormat>) -> OutputEncoding {
        let autoQuality = autoQuality.flatMap { $0.isOn ? $0 : nil }
        guard format == nil, let best = bestFormat else {
            guard let autoQuality else { return encoding }
            return encoding.searching(OutputEncoding.Search(autoQuality: autoQuality))
        }
        let allowed = Set(best.formats).union(accepting.intersection([.avif, .webp, .jxl]))
        let order: [ImageFormat] = [.avif, .webp, .jxl, .heic, .jpeg]
        var search = OutputEncoding.Search(autoQuality: autoQuality, best: best)
        search.candidates = order.filter(allowed.contains).compactMap(writing)
        if allowed.contains(.png), let png = writing(.png) { search.lossless.append(png) }
        if allowed.contains(.webp), let webp = writing(.webp) { search.lossless.append(webp.with(lossless: true)) }
        var searched = encoding.searching(search)
        if allowed.contains(.webp), let webp = writing(.webp) {
            searched = searched.keepingAnimation(as: webp)
        } else if allowed.contains(.gif), let gif = writing(.gif) {
            searched = searched.keepingAnimation(as: gif)
        }
        return searched
    }
}
