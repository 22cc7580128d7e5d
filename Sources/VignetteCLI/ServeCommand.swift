import ArgumentParser
import Foundation
import Glibc
import Logging
import Vignette
import VignetteHTTP
import VignetteRedis
import VignetteHummingbird
import VignetteServer
import VignetteSupport

/// `vignette serve`: the imgproxy-compatible thumbnail server (`VignetteServer`). Its flags'
/// defaults and ranges are `ServerConfiguration`'s (`Defaults`, `Ranges`).
struct ServeCommand: AsyncParsableCommand {
    private typealias Defaults = ServerConfiguration.Defaults
    private typealias Ranges = ServerConfiguration.Ranges

    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve thumbnails over HTTP at imgproxy-compatible URLs.",
        discussion: """
            URLs: /SIGNATURE/OPTIONS/BASE64URL_SOURCE.EXT or /SIGNATURE/OPTIONS/plain/PERCENT_ENCODED_SOURCE@EXT, \
            as imgproxy documents them; sources are local:///PATH under --root, http(s) URLs (public addresses only \
            unless --allow-private-sources) and, with --s3 or --s3-endpoint, s3://BUCKET/KEY[?versionId=V] signed with \
            AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN in AWS_REGION (default us-east-1). GET /health, /ready, /metrics (Prometheus text). Prints \
            "listening on http://HOST:PORT" on standard error once it accepts connections. SIGTERM or SIGINT stops \
            accepting, lets requests in flight finish (up to --shutdown-timeout), writes the disk cache and exits 0. \
            Each flag may also come from its environment variable (named in its help). imgproxy's own variables \
            (IMGPROXY_BIND, IMGPROXY_KEY, IMGPROXY_SALT, IMGPROXY_TTL, …) are read too, so an imgproxy deployment's \
            environment works unchanged; a flag or its VIGNETTE_* variable wins over its imgproxy twin, and one log line \
            at start names the IMGPROXY_* variables read, a warning each one set but not supported (docs/imgproxy.md).
            """)

    @Option(help: ArgumentHelp(
        "The address and port to listen on; port 0 takes any free port; default \(Defaults.host):\(Defaults.port) (env VIGNETTE_BIND).",
        valueName: "HOST:PORT"))
    var bind: String?

    @Option(help: ArgumentHelp("Serve local:///PATH sources from this folder (env VIGNETTE_ROOT).", valueName: "DIR"))
    var root: String?

    @Option(help: ArgumentHelp("URL signing key, hex; several keys comma-separated, each with its salt (env VIGNETTE_KEY or IMGPROXY_KEY; none: signatures are not checked).", valueName: "HEX"))
    var key: String?

    @Option(help: ArgumentHelp("URL signing salt, hex; several comma-separated, one for each key (env VIGNETTE_SALT or IMGPROXY_SALT).", valueName: "HEX"))
    var salt: String?

    @Option(name: .customLong("allow-source"), help: ArgumentHelp("Allow only http(s) sources starting with PREFIX; repeatable (env VIGNETTE_ALLOW_SOURCE, comma-separated).", valueName: "PREFIX"))
    var allowedSources: [String] = []

    @Flag(help: "Render PDF sources (their first page, or page/pg), through poppler: off by default, and PDF sources are answered 415 (env VIGNETTE_ALLOW_PDF=1).")
    var allowPdf = false

    @Flag(help: "Decode video sources (MP4, MOV, WebM, MKV…: a poster frame, the first or video_thumbnail_second/vts), through FFmpeg: off by default, and video sources are answered 415 (env VIGNETTE_ALLOW_VIDEO=1).")
    var allowVideo = false

    @Flag(help: "Allow sources on loopback, private, link-local and other non-public addresses (env VIGNETTE_ALLOW_PRIVATE_SOURCES=1).")
    var allowPrivateSources = false

    @Flag(help: "f:best answers one of the results it encodes, as imgproxy does, never the source's own bytes when they would be smaller (env VIGNETTE_NO_SOURCE_PASSTHROUGH=1).")
    var noSourcePassthrough = false

    @Flag(help: "Serve s3://BUCKET/KEY sources from AWS S3 (https://BUCKET.s3.REGION.amazonaws.com); credentials from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN (env VIGNETTE_S3=1).")
    var s3 = false

    @Option(help: ArgumentHelp("Serve s3://BUCKET/KEY sources from this S3-compatible endpoint instead, path-style (MinIO, Ceph, R2; https://storage.googleapis.com serves gs:// too); the only address exempt from the private-source refusal (env VIGNETTE_S3_ENDPOINT).", valueName: "URL"))
    var s3Endpoint: String?

    @Option(help: ArgumentHelp("Find faces with this YuNet model (face_detection_yunet_2022mar.onnx for OpenCV 4.6, _2023mar.onnx for 4.8 and later) for g:obj:face crops; without it they are attention crops (env VIGNETTE_FACE_MODEL).", valueName: "FILE"))
    var faceModel: String?

    @Option(help: ArgumentHelp("Keep encoded results in a disk cache in DIR (env VIGNETTE_CACHE).", valueName: "DIR"))
    var cache: String?

    @Option(help: ArgumentHelp("Share results with other instances through Redis at redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] (env VIGNETTE_REDIS).", valueName: "URL"))
    var redis: String?

    @Option(help: ArgumentHelp("Connect and command timeout for --redis, in milliseconds; default \(RedisConfiguration.defaultTimeoutMilliseconds) (env VIGNETTE_REDIS_TIMEOUT).", valueName: "MS"))
    var redisTimeout: Int?

    @Option(help: ArgumentHelp("Requests with work under way at once; default: \(Defaults.requestsPerCore) per core of the CPU quota, of which at most the quota are decoded at a time (env VIGNETTE_MAX_CONCURRENCY).", valueName: "N"))
    var maxConcurrency: Int?

    @Option(name: .customLong("preset"), help: ArgumentHelp("A named preset, NAME=OPTIONS; repeatable, e.g. thumb=rs:fill:200:200/q:70 (env VIGNETTE_PRESET, comma-separated).", valueName: "NAME=OPTIONS"))
    var presets: [String] = []

    @Option(help: ArgumentHelp("Requests that may wait for a slot whatever their expected wait; default: \(Defaults.waitingRequestsPerSlot) per slot (env VIGNETTE_QUEUE).", valueName: "N"))
    var queue: Int?

    @Option(help: ArgumentHelp("Seconds a request may be expected to wait for a slot; one expected to wait longer is answered 503 at once, with Retry-After; default: half of --timeout (env VIGNETTE_MAX_QUEUE_WAIT).", valueName: "SECONDS"))
    var maxQueueWait: Double?

    @Option(help: ArgumentHelp("Seconds a request may take before it is answered 504; default \(Defaults.requestTimeoutSeconds) (env VIGNETTE_TIMEOUT).", valueName: "SECONDS"))
    var timeout: Int?

    @Option(help: ArgumentHelp("Seconds an idle connection is kept open for the client's next request; default \(Defaults.keepAliveTimeoutSeconds) (env VIGNETTE_KEEP_ALIVE_TIMEOUT).", valueName: "SECONDS"))
    var keepAliveTimeout: Int?

    @Option(help: ArgumentHelp("Disk cache size in MiB; default \(Defaults.cacheSizeMiB) (env VIGNETTE_CACHE_SIZE).", valueName: "MIB"))
    var cacheSize: Int?

    @Option(help: ArgumentHelp("Memory for encoded results in MiB; 0 for none; default: a twentieth of the memory the process may use, at most 256 (env VIGNETTE_MEMORY_CACHE_SIZE).", valueName: "MIB"))
    var memoryCacheSize: Int?

    @Option(help: ArgumentHelp("Cache-Control max-age of images, in seconds; default \(ImageAnswer.defaultMaxAge), a year (env VIGNETTE_MAX_AGE).", valueName: "SECONDS"))
    var maxAge: Int?

    @Option(help: ArgumentHelp("Seconds to let requests in flight finish after SIGTERM; default \(Defaults.shutdownTimeoutSeconds) (env VIGNETTE_SHUTDOWN_TIMEOUT).", valueName: "SECONDS"))
    var shutdownTimeout: Int?

    @Option(help: ArgumentHelp("The image wm/watermark URLs draw, decoded once at start (env VIGNETTE_WATERMARK or IMGPROXY_WATERMARK_PATH).", valueName: "FILE"))
    var watermark: String?

    @Option(help: ArgumentHelp("Export traces as OTLP over HTTP to this collector (spans go to URL/v1/traces; env OTEL_EXPORTER_OTLP_ENDPOINT; OTEL_SERVICE_NAME names the service, default vignette).", valueName: "URL"))
    var otelEndpoint: String?

    func validate() throws {
        _ = try settings()
        try TraceExport.validate(endpoint: otelEndpoint)
    }

    /// The flags, each falling back to its environment variable, checked.
    func settings() throws -> ServerConfiguration { try serveSettings().configuration }

    /// The `VIGNETTE_*` variables (each standing for its flag too) given on this command line or
    /// in the environment: their imgproxy twins are then not read.
    var givenTwins: Set<String> {
        let flags: [(String, Bool)] = [
            ("VIGNETTE_BIND", bind != nil), ("VIGNETTE_ROOT", root != nil), ("VIGNETTE_KEY", key != nil), ("VIGNETTE_SALT", salt != nil),
            ("VIGNETTE_ALLOW_SOURCE", !allowedSources.isEmpty), ("VIGNETTE_ALLOW_PRIVATE_SOURCES", allowPrivateSources), ("VIGNETTE_S3", s3),
            ("VIGNETTE_S3_ENDPOINT", s3Endpoint != nil), ("VIGNETTE_MAX_CONCURRENCY", maxConcurrency != nil), ("VIGNETTE_PRESET", !presets.isEmpty),
            ("VIGNETTE_QUEUE", queue != nil), ("VIGNETTE_TIMEOUT", timeout != nil), ("VIGNETTE_KEEP_ALIVE_TIMEOUT", keepAliveTimeout != nil),
            ("VIGNETTE_MAX_AGE", maxAge != nil), ("VIGNETTE_SHUTDOWN_TIMEOUT", shutdownTimeout != nil), ("VIGNETTE_WATERMARK", watermark != nil),
        ]
        return Set(flags.filter { $0.1 || ServeCommand.environment($0.0) != nil }.map(\.0))
    }

    /// The settings: imgproxy's variables over the defaults (`ImgproxyEnvironment`), then the
    /// flags, each falling back to its `VIGNETTE_*` variable, over those; checked. Also what
    /// imgproxy's variables gave, for the start's log lines.
    func serveSettings() throws -> (configuration: ServerConfiguration, imgproxy: ImgproxyEnvironment) {
        let environment = ServeCommand.environment
        let imgproxy: ImgproxyEnvironment
        do {
            let given = givenTwins
            imgproxy = try ImgproxyEnvironment(environment: ProcessInfo.processInfo.environment) { given.contains($0) }
        } catch let failure as ImgproxyEnvironment.Failure {
            throw ValidationError(failure.description)
        }
        var configuration = imgproxy.configuration
        if let text = bind ?? environment("VIGNETTE_BIND") { (configuration.host, configuration.port) = try ServeCommand.address(text) }
        if let root = root ?? environment("VIGNETTE_ROOT") { configuration.localRoot = root }
        let prefixes = allowedSources.isEmpty ? ServeCommand.list(environment("VIGNETTE_ALLOW_SOURCE")) : allowedSources
        if !prefixes.isEmpty { configuration.allowedSourcePrefixes = prefixes }
        if allowPrivateSources || ServeCommand.isOn(environment("VIGNETTE_ALLOW_PRIVATE_SOURCES")) { configuration.allowsLocalNetworks = true }
        if let key = key ?? environment("VIGNETTE_KEY") { configuration.signatureKey = key }
        if let salt = salt ?? environment("VIGNETTE_SALT") { configuration.signatureSalt = salt }
        let presetList = presets.isEmpty ? ServeCommand.list(environment("VIGNETTE_PRESET")) : presets
        if !presetList.isEmpty { configuration.presets = [:] }
        for preset in presetList {
            let parts = preset.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--preset takes NAME=OPTIONS, got \(preset)") }
            configuration.presets[String(parts[0])] = String(parts[1])
        }
        configuration.presets = imgproxy.presets(withDefaults: configuration.presets)
        func number(_ flag: Int?, _ variable: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let value = try flag ?? environment(variable).map({ text throws -> Int in
                guard let value = Int(text) else { throw ValidationError("\(variable) must be a number, got \(text)") }
                return value
            }) else { return nil }
            guard range.contains(value) else { throw ValidationError("\(name) must be \(range.lowerBound)–\(range.upperBound), got \(value)") }
            return value
        }
        if let concurrency = try number(maxConcurrency, "VIGNETTE_MAX_CONCURRENCY", "--max-concurrency", Ranges.maxConcurrentRequests) {
            configuration.maxConcurrentRequests = concurrency
        }
        if let waiting = try number(queue, "VIGNETTE_QUEUE", "--queue", Ranges.maxWaitingRequests) { configuration.maxWaitingRequests = waiting }
        if let seconds = try maxQueueWait ?? environment("VIGNETTE_MAX_QUEUE_WAIT").map({ text throws -> Double in
            guard let value = Double(text) else { throw ValidationError("VIGNETTE_MAX_QUEUE_WAIT must be a number, got \(text)") }
            return value
        }) {
            let range = Ranges.maxQueueWaitSeconds
            guard seconds.isFinite, range.contains(seconds) else {
                throw ValidationError("--max-queue-wait must be \(Int(range.lowerBound))–\(Int(range.upperBound)), got \(seconds)")
            }
            configuration.maxQueueWait = .seconds(seconds)
        }
        if let seconds = try number(timeout, "VIGNETTE_TIMEOUT", "--timeout", Ranges.timeoutSeconds) {
            configuration.requestTimeout = .seconds(seconds)
        }
        if let seconds = try number(keepAliveTimeout, "VIGNETTE_KEEP_ALIVE_TIMEOUT", "--keep-alive-timeout", Ranges.timeoutSeconds) {
            configuration.keepAliveTimeout = .seconds(seconds)
        }
        configuration.cacheFolder = cache ?? environment("VIGNETTE_CACHE")
        if allowPdf || ServeCommand.isOn(environment("VIGNETTE_ALLOW_PDF")) { configuration.allowedInputs.insert(.pdf) }
        if allowVideo || ServeCommand.isOn(environment("VIGNETTE_ALLOW_VIDEO")) { configuration.allowedInputs.insert(.video) }
        if noSourcePassthrough || ServeCommand.isOn(environment("VIGNETTE_NO_SOURCE_PASSTHROUGH")) {
            configuration.bestFormat.passesSourceThrough = false
        }
        if let path = watermark ?? environment("VIGNETTE_WATERMARK") { configuration.watermarkPath = path }
        configuration.faceModelPath = faceModel ?? environment("VIGNETTE_FACE_MODEL")
        configuration.memoryCacheSizeLimit = try number(
            memoryCacheSize, "VIGNETTE_MEMORY_CACHE_SIZE", "--memory-cache-size", Ranges.memoryCacheSizeMiB).map { $0 << 20 }
        if let mebibytes = try number(cacheSize, "VIGNETTE_CACHE_SIZE", "--cache-size", Ranges.cacheSizeMiB) {
            configuration.cacheSizeLimit = mebibytes << 20
        }
        if let url = redis ?? environment("VIGNETTE_REDIS") {
            do {
                configuration.redis = try RedisConfiguration(url: url)
            } catch {
                throw ValidationError("--redis: \(error.message)")
            }
            if let milliseconds = try number(redisTimeout, "VIGNETTE_REDIS_TIMEOUT", "--redis-timeout", Ranges.redisTimeoutMilliseconds) {
                configuration.redis?.connectTimeout = .milliseconds(milliseconds)
                configuration.redis?.commandTimeout = .milliseconds(milliseconds)
            }
        }
        let s3Enabled = s3 || ServeCommand.isOn(environment("VIGNETTE_S3")), endpoint = s3Endpoint ?? environment("VIGNETTE_S3_ENDPOINT")
        if s3Enabled || endpoint != nil { configuration.s3 = try ServeCommand.s3Configuration(enabled: s3Enabled, endpoint: endpoint) }
        if let seconds = try number(maxAge, "VIGNETTE_MAX_AGE", "--max-age", Ranges.cacheMaxAge) { configuration.cacheMaxAge = seconds }
        return (configuration, imgproxy)
    }

    func run() async throws {
        let (configuration, imgproxy) = try serveSettings()
        // Before any logger is made: imgproxy's log format and level, when its variables give them.
        let logger = ServeCommand.startLogging(format: imgproxy.logFormat, level: imgproxy.logLevel)
        // Two malloc arenas rather than glibc's eight per core: memory freed by one thread stays in
        // the arena it came from, so with many threads each keeping an arena of its own, a
        // long-running server's resident memory grows with memory it rarely reuses.
        let arenasCapped = ImagingRuntime.limitMallocArenas(to: 2)
        // Before the server: its pipeline and its request spans take the tracer bootstrapped here.
        let traceExport = try TraceExport.bootstrap(endpoint: otelEndpoint)
        let server = try ThumbnailServer(configuration: configuration, logger: logger)
        imgproxy.log(to: server.logger)
        logCaps(of: server, arenasCapped: arenasCapped)
        // Under load the pipeline makes one image per core at once, which keeps every core busy:
        // one libvips thread each, since more threads per image would only contend for the cores.
        ImagingRuntime.shareCores(CPUBudget.availableCores(), among: server.pipeline.configuration.decodingConcurrency)
        let shutdown = Duration.seconds(try Self.shutdownSeconds(shutdownTimeout, imgproxy: imgproxy.shutdownSeconds))
        let host = Self.shown(configuration.host), metricsHost = Self.shown(configuration.metricsHost)
        do {
            try await server.run(
                shutdownTimeout: shutdown, alongside: traceExport.map { [$0] } ?? [],
                onRunning: { port in Console.error("listening on http://\(host):\(port)") },
                onMetricsRunning: { port in Console.error("metrics on http://\(metricsHost):\(port)/metrics") })
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// `host` as it goes in a URL: an IPv6 address in brackets.
    static func shown(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// The server's logger, after the logging system is set up for `format` and `level` when
    /// either is given (imgproxy's `IMGPROXY_LOG_FORMAT`, `IMGPROXY_LOG_LEVEL`); otherwise
    /// swift-log's default, text lines on standard error at info level.
    static func startLogging(format: ImgproxyEnvironment.LogFormat?, level: Logger.Level?) -> Logger {
        if format != nil || level != nil {
            let level = level ?? .info
            switch format {
            case .json, .gcp:
                let googleCloud = format == .gcp
                LoggingSystem.bootstrap { label in
                    var handler = JSONLogHandler(label: label, googleCloud: googleCloud)
                    handler.logLevel = level
                    return handler
                }
            case .text, nil:
                LoggingSystem.bootstrap { label in
                    var handler = StreamLogHandler.standardError(label: label)
                    handler.logLevel = level
                    return handler
                }
            }
        }
        return Logger(label: "vignette.server")
    }

    /// S3 sources when asked for (`--s3`, or an endpoint): credentials and region from the
    /// environment, which must have them.
    static func s3Configuration(enabled: Bool, endpoint: String?) throws -> S3Configuration? {
        guard enabled || endpoint != nil else { return nil }
        let configuration: S3Configuration?
        do {
            configuration = try S3Configuration.fromEnvironment(endpoint: endpoint, environment)
        } catch {
            throw ValidationError("--s3-endpoint: \(error.description)")
        }
        guard let configuration else {
            throw ValidationError("--s3 and --s3-endpoint need AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment")
        }
        return configuration
    }

    /// The shutdown's grace period: the flag, `VIGNETTE_SHUTDOWN_TIMEOUT`, imgproxy's
    /// `IMGPROXY_GRACEFUL_STOP_TIMEOUT` (`imgproxy`), or the default.
    static func shutdownSeconds(_ flag: Int?, imgproxy: Int? = nil) throws -> Int {
        let value = flag ?? environment("VIGNETTE_SHUTDOWN_TIMEOUT").flatMap { Int($0) } ?? imgproxy ?? Defaults.shutdownTimeoutSeconds
        let range = Ranges.shutdownTimeoutSeconds
        guard range.contains(value) else { throw ValidationError("--shutdown-timeout must be \(range.lowerBound)–\(range.upperBound), got \(value)") }
        return value
    }

    /// HOST:PORT, [IPv6]:PORT, or :PORT (all interfaces).
    static func address(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--bind takes HOST:PORT with a port 0–65535, got \(text)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host.isEmpty ? "0.0.0.0" : host, port)
    }

    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty }
    }

    static func isOn(_ text: String?) -> Bool {
        ["1", "true", "yes", "on"].contains((text ?? "").lowercased())
    }

    /// The environment variable `name`; nil when unset or empty.
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
