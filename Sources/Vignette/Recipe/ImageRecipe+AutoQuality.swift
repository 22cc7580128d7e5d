extension ImageRecipe {
    /// imgproxy's `autoquality` (`aq:%method:%target:%min_quality:%max_quality:%allowed_error`):
    /// the quality of a lossy result chosen per image by a search (`AutoQualitySearch`) instead of
    /// fixed. nil fields take the defaults (`defaultAutoQualityTarget`, `defaultQualityRange(for:)`,
    /// `defaultAllowedScoreError`); a front door may fill them from its configuration first.
    public struct AutoQuality: Sendable, Hashable, Codable {
        /// How the quality is chosen.
        public enum Method: String, Sendable, Hashable, Codable, CaseIterable {
            /// No search: the format's own quality (imgproxy's `none`, which turns a configured
            /// default off).
            case none
            /// The highest quality in [min, max] whose result fits `target` bytes (imgproxy's
            /// `size`), by the max-bytes bisection (`ImageEncoder.fitted`).
            case size
            /// The lowest quality in [min, max] whose decoded result scores at least `target` −
            /// `allowedError` on SSIMULACRA 2.1 (`SSIMULACRA2Reference`) against the image before
            /// encoding; max when even max does not reach it. Vignette's own method.
            case ssimulacra2

            /// The method named `text`; `.invalidArgument` naming the methods that exist for any
            /// other (imgproxy Pro's `dssim` and `ml` are not pretended).
            public init(parsing text: some StringProtocol) throws(ImagingError) {
                guard let method = Method(rawValue: String(text).lowercased()) else {
                    let known = Method.allCases.map(\.rawValue).joined(separator: ", ")
                    let shown = String(String(text).unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(32))
                    throw ImagingError(.invalidArgument, "autoquality method \"\(shown)\" is not one Vignette has (\(known))")
                }
                self = method
            }
        }

        /// How the quality is chosen.
        public var method: Method
        /// Bytes for `size`; a SSIMULACRA2 score (0–100) for `ssimulacra2`; nil for the default.
        public var target: Double?
        /// The lowest quality tried, for the formats `formatMinQuality` does not name; nil: the
        /// format's default.
        public var minQuality: Int?
        /// The highest quality tried, for the formats `formatMaxQuality` does not name.
        public var maxQuality: Int?
        /// Score points below `target` still taken (`ssimulacra2`); nil for the default.
        public var allowedError: Double?
        /// Per-format lowest qualities, over `minQuality` (imgproxy's `IMGPROXY_AUTOQUALITY_FORMAT_MIN`).
        public var formatMinQuality: [ImageFormat: Int] = [:]
        /// Per-format highest qualities, over `maxQuality` (`IMGPROXY_AUTOQUALITY_FORMAT_MAX`).
        public var formatMaxQuality: [ImageFormat: Int] = [:]
        /// Results of more pixels than this are written at their format's quality with no
        /// search (imgproxy's `IMGPROXY_AUTOQUALITY_MAX_RESOLUTION`, in pixels here); 0 is no limit.
        public var maxPixels = 0

        /// A search by `method` towards `target`, the other settings left to the defaults.
        public init(method: Method, target: Double? = nil, minQuality: Int? = nil, maxQuality: Int? = nil, allowedError: Double? = nil) {
            self.method = method
            self.target = target
            self.minQuality = minQuality
            self.maxQuality = maxQuality
            self.allowedError = allowedError
        }

        /// The qualities tried for `format`: the format's own (`formatMinQuality`/`formatMaxQuality`),
        /// else `minQuality`/`maxQuality`, else `defaultQualityRange(for:)`.
        public func qualities(for format: ImageFormat) -> (min: Int, max: Int) {
            let defaults = ImageRecipe.defaultQualityRange(for: format)
            return (formatMinQuality[format] ?? minQuality ?? defaults.lowerBound, formatMaxQuality[format] ?? maxQuality ?? defaults.upperBound)
        }

        /// These settings with the ones left empty taken from `configured`: its target and
        /// allowed error when the methods agree, its min (with its per-format mins) when none is
        /// set here, likewise its max, and its max resolution.
        public func filled(from configured: AutoQuality) -> AutoQuality {
            var filled = self
            if method == configured.method {
                filled.target = target ?? configured.target
                filled.allowedError = allowedError ?? configured.allowedError
            }
            if minQuality == nil, formatMinQuality.isEmpty {
                filled.minQuality = configured.minQuality
                filled.formatMinQuality = configured.formatMinQuality
            }
            if maxQuality == nil, formatMaxQuality.isEmpty {
                filled.maxQuality = configured.maxQuality
                filled.formatMaxQuality = configured.formatMaxQuality
            }
            if filled.maxPixels == 0 { filled.maxPixels = configured.maxPixels }
            return filled
        }

        /// The target, `defaultAutoQualityTarget` when none is set (none for `size`: validation asks for one).
        public var effectiveTarget: Double { target ?? (method == .ssimulacra2 ? ImageRecipe.defaultAutoQualityTarget : 0) }

        /// The allowed error, `defaultAllowedScoreError` when none is set.
        public var effectiveAllowedError: Double { allowedError ?? ImageRecipe.defaultAllowedScoreError }

        /// Whether a search is asked for (a method other than `none`).
        public var isOn: Bool { method != .none }
    }

    /// imgproxy's `f:best`: each format the client accepts and the front door allows (`formats`
    /// and the formats `encoding(accepting:)` is given) written at its autoquality (or its set
    /// quality), the smallest kept. Images simpler than `complexityThreshold` (`ImageComplexity`)
    /// also try lossless PNG and WebP; animations are never AVIF.
    public struct BestFormat: Sendable, Hashable, Codable {
        /// The formats always allowed (imgproxy's `IMGPROXY_PREFERRED_FORMATS`); AVIF, WebP and
        /// JPEG XL join them when the client accepts them.
        public var formats: [ImageFormat]
        /// Below this `ImageComplexity.score`, lossless PNG and WebP are tried as well (imgproxy's
        /// `IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD`).
        public var complexityThreshold: Double
        /// Images of more pixels than this are written in one format, the first of AVIF, WebP,
        /// JPEG XL allowed, else JPEG (PNG with alpha), with no trial (imgproxy's
        /// `IMGPROXY_BEST_FORMAT_MAX_RESOLUTION`, in pixels); 0 is no limit.
        public var maxPixels: Int
        /// Whether the source's own bytes are the answer when they are in an allowed format, of
        /// the result's size, no larger than the best candidate, and nothing else is done to the
        /// image (no processor): a result bigger than its source is never sent.
        public var passesSourceThrough: Bool

        /// Best of `formats` (imgproxy's defaults: JPEG, PNG, GIF), with imgproxy's threshold.
        public init(
            formats: [ImageFormat] = [.jpeg, .png, .gif], complexityThreshold: Double = 5.5, maxPixels: Int = 0, passesSourceThrough: Bool = true
        ) {
            self.formats = formats
            self.complexityThreshold = complexityThreshold
            self.maxPixels = maxPixels
            self.passesSourceThrough = passesSourceThrough
        }
    }

    /// The formats whose quality a search can set.
    public static let searchableFormats: Set<ImageFormat> = [.jpeg, .webp, .avif, .heic, .jxl]
}
