import Vignette
import VignetteServer

extension ImgproxyEnvironment {
    /// imgproxy Pro's autoquality and best-format variables, read into
    /// `ServerConfiguration.autoQuality` and `.bestFormat`.
    static let searchVariables: [Variable] = [
        Variable("IMGPROXY_AUTOQUALITY_METHOD", support: .differs("none, size and ssimulacra2 (Vignette's own); dssim and ml stop the server")) { value, env in
            do { env.configuration.autoQuality.method = try ImageRecipe.AutoQuality.Method(parsing: value.text.trimmingWhitespace()) } catch {
                throw value.failure("none, size or ssimulacra2")
            }
        },
        Variable("IMGPROXY_AUTOQUALITY_TARGET", support: .differs("bytes for size, a SSIMULACRA2 score for ssimulacra2 (default 80); imgproxy's default 0.02 is a DSSIM and is not used")) { value, env in
            guard let target = Double(value.text.trimmingWhitespace()), target.isFinite, target > 0 else { throw value.failure("a number above 0") }
            env.configuration.autoQuality.target = target
        },
        Variable("IMGPROXY_AUTOQUALITY_MIN") { value, env in
            env.configuration.autoQuality.minQuality = try value.integer(in: ServerConfiguration.Ranges.quality)
        },
        Variable("IMGPROXY_AUTOQUALITY_MAX") { value, env in
            env.configuration.autoQuality.maxQuality = try value.integer(in: ServerConfiguration.Ranges.quality)
        },
        Variable("IMGPROXY_AUTOQUALITY_FORMAT_MIN") { value, env in
            env.configuration.autoQuality.formatMinQuality = try formatQualities(value)
        },
        Variable("IMGPROXY_AUTOQUALITY_FORMAT_MAX") { value, env in
            env.configuration.autoQuality.formatMaxQuality = try formatQualities(value)
        },
        Variable("IMGPROXY_AUTOQUALITY_ALLOWED_ERROR", support: .differs("score points for ssimulacra2 (default 1); imgproxy's default 0.001 is a DSSIM's")) { value, env in
            guard let error = Double(value.text.trimmingWhitespace()), error.isFinite, error >= 0, error <= 100 else { throw value.failure("a number 0–100") }
            env.configuration.autoQuality.allowedError = error
        },
        Variable("IMGPROXY_AUTOQUALITY_MAX_RESOLUTION") { value, env in
            env.configuration.autoQuality.maxPixels = try value.megapixels()
        },
        .unsupported("IMGPROXY_AUTOQUALITY_JPEG_NET", "IMGPROXY_AUTOQUALITY_WEBP_NET", "IMGPROXY_AUTOQUALITY_AVIF_NET", "IMGPROXY_AUTOQUALITY_JXL_NET",
                     why: "the ml method is imgproxy Pro's; ssimulacra2 measures instead"),
        Variable("IMGPROXY_PREFERRED_FORMATS", support: .differs("read for f:best only (the formats it tries besides AVIF, WebP and JPEG XL from Accept); without a format the result is JPEG, or PNG for images with alpha")) { value, env in
            let formats = try value.list.map { try value.format($0) }
            if !formats.isEmpty { env.configuration.bestFormat.formats = formats }
        },
        Variable("IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD", support: .differs("on Vignette's own measure (ImageComplexity: mean luma gradient, 8-bit levels), where 5.5 also parts graphics from photos")) { value, env in
            guard let threshold = Double(value.text.trimmingWhitespace()), threshold.isFinite, threshold >= 0, threshold <= 255 else {
                throw value.failure("a number 0–255")
            }
            env.configuration.bestFormat.complexityThreshold = threshold
        },
        Variable("IMGPROXY_BEST_FORMAT_MAX_RESOLUTION") { value, env in
            env.configuration.bestFormat.maxPixels = try value.megapixels()
        },
        Variable("IMGPROXY_BEST_FORMAT_BY_DEFAULT") { value, env in env.configuration.bestFormatByDefault = try value.bool() },
        Variable("IMGPROXY_BEST_FORMAT_ALLOW_SKIPS", support: .differs("the formats IMGPROXY_SKIP_PROCESSING_FORMATS lists; SVG is not skipped")) { value, env in
            env.configuration.bestFormatAllowsSkips = try value.bool()
        },
    ]

    /// `FORMAT=QUALITY` pairs, comma-separated, the quality 1–100.
    static func formatQualities(_ value: Value) throws -> [ImageFormat: Int] {
        var qualities: [ImageFormat: Int] = [:]
        for pair in value.list {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let quality = Int(parts[1].trimmingWhitespace()), ServerConfiguration.Ranges.quality.contains(quality) else {
                throw value.failure("FORMAT=QUALITY pairs, the quality 1–100")
            }
            qualities[try value.format(parts[0])] = quality
        }
        return qualities
    }
}
