import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette
import VignetteImgproxy
import VignetteHTTP
import VignetteSupport

/// `vignette info FILE|URL...`: one JSON object a line, header only.
struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print each file's (or URL's) header (format, size, bands, alpha, orientation, pages, embedded thumbnail) as one JSON line.")

    @Argument(help: "Image files, http(s) URLs or s3:// objects.")
    var files: [String]

    @OptionGroup(title: "S3")
    var s3: S3Flags

    @Option(help: "Also decode a small thumbnail and add its placeholder string: thumbhash (base64) or blurhash.")
    var placeholder: PlaceholderKind?

    @Option(
        name: .customLong("info-options"),
        help: "Print imgproxy's /info JSON instead (the bytes `vignette serve` answers at /info/…): its info options, '/'-separated ('' for the defaults), e.g. 'exif:1/avg:1/bh:4:3/chs:sha256'.")
    var infoOptions: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one file") }
        if let infoOptions {
            do { _ = try InfoCommand.parse(infoOptions) } catch { throw ValidationError("--info-options: \(error)") }
            if placeholder != nil { throw ValidationError("--placeholder and --info-options do not go together (use th:1 or bh:4:3)") }
        }
    }

    /// imgproxy info options from '/'-separated text, checked as `vignette serve` checks them.
    static func parse(_ text: String) throws(ImagingError) -> ImageInfoOptions {
        var options = ImageInfoOptions()
        var delivery = ImgproxyOptions.Delivery()
        for segment in text.split(separator: "/") { try options.apply(segment, delivery: &delivery) }
        try options.recipe.validate(limits: .untrusted)
        return options
    }

    func run() async throws {
        let limits = DecodingLimits.untrusted
        let decoder = ImageDecoder(limits: limits)
        // The run's one pipeline: it downloads the URLs (into a temporary folder) and makes the placeholders.
        var remote: RemoteInputs?
        let pipeline: ImagePipeline
        if files.contains(where: RemoteInputs.isURL) {
            let loader = HTTPDataLoader(limits: limits, configuration: HTTPDataLoader.Configuration(s3: try s3.configuration()))
            let folder = RemoteInputs.temporaryFolder()
            pipeline = try ImagePipeline.command(limits: limits, loader: loader, cacheFolder: folder)
            remote = RemoteInputs(pipeline: pipeline, temporaryFolder: folder)
        } else {
            pipeline = try ImagePipeline.command(limits: limits)
        }
        var failed = false
        for (position, file) in files.enumerated() {
            remote?.prefetch(after: position, of: files)
            do {
                // The bytes, when more than the header is read: a download, a placeholder, an animation.
                var data: Data?
                if let remote, RemoteInputs.isURL(file) { data = try await remote.data(at: file) }
                if let infoOptions {
                    // The server's answer, through the same pipeline call: a file's header alone
                    // unless pixels or hashsums are asked for; a URL's downloaded bytes.
                    let options = try InfoCommand.parse(infoOptions)
                    let source: ImageRequest.Source = if let bytes = data { .data(id: file, load: { bytes }) } else { .file(file) }
                    var request = try options.recipe.request(for: source, limits: limits)
                    request.options.insert(.disableDiskCache)
                    print(try await pipeline.info(for: request, options: options))
                    continue
                }
                if placeholder != nil, data == nil { data = try InputFile.read(file, limits: limits) }
                let info = try data.map { try decoder.probe($0) } ?? decoder.probe(fileAt: file)
                var placeholderText: (kind: String, value: String)?
                if let placeholder, let bytes = data {
                    var request = try ImageRecipe.placeholder.request(for: .data(id: file, load: { bytes }), limits: limits)
                    request.options.insert(.disableDiskCache)
                    placeholderText = (placeholder.rawValue, try await pipeline.placeholder(placeholder, for: request))
                }
                var animation: AnimationInfo?
                if info.isAnimated {
                    // Its header read again with libvips' `n=-1`: frames, loop and delays.
                    animation = try decoder.animationInfo(data ?? InputFile.read(file, limits: limits))
                }
                print(InfoLine.json(file: file, info: info, placeholder: placeholderText, animation: animation))
            } catch {
                Console.failed(file, error)
                failed = true
            }
        }
        await remote?.finish()
        if failed { throw ExitCode(1) }
    }
}

extension PlaceholderKind: ExpressibleByArgument {}

/// The JSON object `vignette info` prints for one file, keys in the contract's order.
enum InfoLine {
    static func json(file: String, info: ImageInfo, placeholder: (kind: String, value: String)? = nil,
                     animation: AnimationInfo? = nil) -> String {
        let thumbnail: JSONValue = info.embeddedThumbnail.map {
            .object([("width", .int($0.width)), ("height", .int($0.height))])
        } ?? .null
        var fields: [(String, JSONValue)] = [
            ("file", .string(file)),
            ("format", .string(info.format.rawValue)),
            ("width", .int(info.width)),
            ("height", .int(info.height)),
            ("bands", .int(info.bands)),
            ("hasAlpha", .bool(info.hasAlpha)),
            ("orientation", .int(info.orientation)),
            ("pages", .int(info.pages)),
            ("embeddedThumbnail", thumbnail),
            // Animated GIF and WebP: frames, loop count (0 = forever) and one play's duration;
            // 1, null and null for everything else.
            ("frames", .int(animation?.frameCount ?? 1)),
            ("loop", animation.map { .int($0.loopCount) } ?? .null),
            ("durationMs", animation.map { .int($0.durationMilliseconds) } ?? .null),
        ]
        if let video = info.video {
            // Videos only (width and height are the poster's, rotation applied).
            fields.append((
                "video",
                .object([
                    ("codec", .string(video.codec)),
                    ("durationSeconds", video.duration.map { .double($0) } ?? .null),
                    ("frameRate", video.frameRate.map { .double($0) } ?? .null),
                    ("rotation", .int(video.rotation)),
                    ("storedWidth", .int(video.storedSize.width)),
                    ("storedHeight", .int(video.storedSize.height)),
                ])
            ))
        }
        // Only when the file's ICC profile cannot describe its pixels and is ignored.
        if let reason = info.ignoredProfile { fields.append(("ignoredProfile", .string(reason))) }
        if let placeholder { fields.append((placeholder.kind, .string(placeholder.value))) }
        return JSONValue.object(fields).text
    }
}
