#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vignette
import VignetteHTTP
import VignetteImgproxy
import VignetteServer
import VignetteSupport

/// imgproxy's own configuration variables, read into `vignette serve`'s settings so that an
/// imgproxy deployment's environment works unchanged.
///
/// `table` lists every variable of imgproxy's configuration (3.x and 4.x), each with how Vignette
/// follows it: `same` (imgproxy's meaning, units and default), `differs` (read, and how it
/// differs), or `unsupported` (why). A `VIGNETTE_*` variable or a flag wins over its imgproxy twin
/// (`Variable.twin`): the imgproxy value is then not read at all. A set variable that is not
/// supported, or an `IMGPROXY_*` name imgproxy does not have, becomes one of `warnings`; a value
/// that cannot be read is an `ImgproxyEnvironment.Failure` naming the variable, and the server does
/// not start. docs/imgproxy.md has the same table for people.
struct ImgproxyEnvironment {
    /// The settings: Vignette's defaults with imgproxy's variables applied.
    var configuration = ServerConfiguration()
    /// `IMGPROXY_GRACEFUL_STOP_TIMEOUT`, in seconds.
    var shutdownSeconds: Int?
    /// `IMGPROXY_LOG_LEVEL`.
    var logLevel: Logger.Level?
    /// `IMGPROXY_LOG_FORMAT`.
    var logFormat: LogFormat?
    /// Options every URL starts from (`IMGPROXY_STRIP_METADATA=false` is `sm:0`, …), put before
    /// the `default` preset once the presets are known (`presets(withDefaults:)`).
    var defaultOptions: [String] = []
    /// The variables read, in the table's order.
    var read: [String] = []
    /// The variables set but not read because their `VIGNETTE_*` twin or its flag is given.
    var overridden: [String] = []
    /// One line for each variable set that is not supported, or not imgproxy's.
    var warnings: [String] = []

    // Values several variables make up together, composed by `finish(_:)`.
    private var keys: String?
    private var salts: String?
    private var presetsText: String?
    private var presetsSeparator = ","
    private var presetsPath: String?
    private var useS3 = false
    private var s3Endpoint: String?
    private var s3Region: String?
    private var allowLoopback = false
    private var allowLinkLocal = false
    private var allowPrivate = true
    private var fallbackPath: String?
    private var fallbackURL: String?
    private var fallbackData: String?

    /// How `IMGPROXY_LOG_FORMAT` writes log lines.
    enum LogFormat: Sendable, Equatable {
        /// swift-log's text lines (for imgproxy's `pretty` and `structured`).
        case text
        /// One JSON object a line (`json`), or with Google Cloud Logging's field names (`gcp`).
        case json, gcp
    }

    /// `environment`'s imgproxy variables read; `twinGiven(name)` says whether the `VIGNETTE_*`
    /// variable `name`, or its flag, is given (then its imgproxy twin is not read).
    /// - Throws: `Failure` for the first value that cannot be read.
    init(environment: [String: String], twinGiven: (String) -> Bool) throws {
        let known = Set(Self.table.flatMap(\.names))
        for variable in Self.table {
            // Of a variable and its deprecated names, the current one is applied last and wins.
            for name in variable.apply == nil ? variable.names : variable.names.reversed() {
                guard let text = environment[name], !text.trimmingWhitespace().isEmpty else { continue }
                if let twin = variable.twin, twinGiven(twin) {
                    overridden.append(name)
                    continue
                }
                switch variable.support {
                case .unsupported(let why):
                    warnings.append("\(name) is set but not supported: \(why)")
                case .same, .differs:
                    guard let apply = variable.apply else { continue }
                    let warningsBefore = warnings.count
                    try apply(Value(name: name, text: text), &self)
                    if warnings.count == warningsBefore { read.append(name) }
                }
            }
        }
        for name in environment.keys.sorted() where name.hasPrefix("IMGPROXY_") && !known.contains(name) {
            let keys = name == "IMGPROXY_KEYS" || name == "IMGPROXY_SALTS" ? " (imgproxy reads several keys and salts from IMGPROXY_KEY and IMGPROXY_SALT, comma-separated)" : ""
            warnings.append("\(name) is set but is not one of imgproxy's settings\(keys)")
        }
        try finish(environment)
    }

    /// Logs, at start, one line naming the imgproxy variables read (and those a `VIGNETTE_*` twin
    /// or flag overrode), and a warning for each one set that is not followed.
    func log(to logger: Logger) {
        if !read.isEmpty || !overridden.isEmpty {
            var metadata: Logger.Metadata = [:]
            if !overridden.isEmpty { metadata["overridden_by_vignette_settings"] = "\(overridden.joined(separator: ", "))" }
            logger.info("imgproxy variables read: \(read.isEmpty ? "none" : read.joined(separator: ", "))", metadata: metadata)
        }
        for warning in warnings { logger.warning("\(warning)") }
    }

    /// The presets `presets` with `defaultOptions` put before their `default`.
    func presets(withDefaults presets: [String: String]) -> [String: String] {
        guard !defaultOptions.isEmpty else { return presets }
        var presets = presets
        presets["default"] = (defaultOptions + [presets["default"]].compactMap { $0 }).joined(separator: "/")
        return presets
    }

    /// Composes what several variables make together: the key and salt pairs, the presets, S3,
    /// the source addresses allowed and the fallback image.
    private mutating func finish(_ environment: [String: String]) throws {
        // imgproxy checks signatures with its key and salt lists paired in order, both needed.
        let count = { (list: String?) in list.map { $0.split(separator: ",", omittingEmptySubsequences: false).count } ?? 0 }
        if keys != nil, salts == nil, !overridden.contains("IMGPROXY_SALT") {
            throw Failure(variable: "IMGPROXY_SALT", problem: "IMGPROXY_KEY is set without it: imgproxy needs a salt for each key")
        }
        if salts != nil, keys == nil, !overridden.contains("IMGPROXY_KEY") {
            throw Failure(variable: "IMGPROXY_KEY", problem: "IMGPROXY_SALT is set without it: imgproxy needs a key for each salt")
        }
        if keys != nil, salts != nil, count(keys) != count(salts) {
            throw Failure(variable: "IMGPROXY_KEY", problem: "\(count(keys)) keys but \(count(salts)) salts in IMGPROXY_SALT: one salt for each key")
        }
        if let keys { configuration.signatureKey = keys }
        if let salts { configuration.signatureSalt = salts }
        if presetsText != nil || presetsPath != nil {
            var lines = presetsText.map { $0.components(separatedBy: presetsSeparator) } ?? []
            if let path = presetsPath {
                do {
                    let data = try InputFile.read(path, maxBytes: 1 << 20)
                    lines += String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") }
                } catch {
                    throw Failure(variable: "IMGPROXY_PRESETS_PATH", problem: "cannot read \(path): \(error)")
                }
            }
            for line in lines.map({ String($0.trimmingWhitespace()) }) where !line.isEmpty {
                let parts = line.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, !parts[0].isEmpty else {
                    throw Failure(variable: presetsPath == nil ? "IMGPROXY_PRESETS" : "IMGPROXY_PRESETS or IMGPROXY_PRESETS_PATH", problem: "a preset is NAME=OPTIONS, got \(line)")
                }
                configuration.presets[String(parts[0].trimmingWhitespace())] = String(parts[1].trimmingWhitespace())
            }
        }
        if useS3 {
            var region = s3Region
            if region == nil { region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] }
            let lookup: (String) -> String? = { name in name == "AWS_REGION" ? region : environment[name] }
            do {
                guard let s3 = try S3Configuration.fromEnvironment(endpoint: s3Endpoint, lookup) else {
                    throw Failure(variable: "IMGPROXY_USE_S3", problem: "S3 needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment")
                }
                configuration.s3 = s3
            } catch let error as ImagingError {
                throw Failure(variable: "IMGPROXY_S3_ENDPOINT", problem: error.message)
            }
        } else if s3Endpoint != nil {
            warnings.append("IMGPROXY_S3_ENDPOINT is set but not used: IMGPROXY_USE_S3 is not true, so S3 stays off, as in imgproxy")
            read.removeAll { $0 == "IMGPROXY_S3_ENDPOINT" }
        }
        // Vignette allows non-public source addresses all together or none: loopback and
        // link-local ones (and private ones, imgproxy's default) allowed together are all of them.
        let allowing = Self.addressVariables.filter { read.contains($0) && ["1", "t", "T", "TRUE", "true", "True"].contains(environment[$0] ?? "") }
        if allowLoopback && allowLinkLocal && allowPrivate {
            configuration.allowsLocalNetworks = true
        } else if !allowing.isEmpty {
            warnings.append(
                "\(allowing.sorted().joined(separator: " and ")) is not supported without the others: Vignette allows loopback, link-local and private "
                    + "source addresses all together (each of the three true) or none, and refuses them all")
            read.removeAll { Self.addressVariables.contains($0) }
        }
        let fallbacks = [fallbackPath, fallbackURL, fallbackData].compactMap { $0 }
        if let path = fallbackPath {
            guard (try? FileStatus(path: path))?.kind == .regular else {
                throw Failure(variable: "IMGPROXY_FALLBACK_IMAGE_PATH", problem: "\(path) is not a readable file")
            }
            configuration.fallbackImage = .file(path)
        } else if let text = fallbackURL {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                throw Failure(variable: "IMGPROXY_FALLBACK_IMAGE_URL", problem: "an http(s) URL, got \(text)")
            }
            configuration.fallbackImage = .url(url)
        } else if let text = fallbackData {
            guard let data = Data(base64Encoded: text), !data.isEmpty else {
                throw Failure(variable: "IMGPROXY_FALLBACK_IMAGE_DATA", problem: "not base64")
            }
            configuration.fallbackImage = .data(id: "imgproxy-fallback-image-data:\(Digests.sha256Hex(data))") { data }
        }
        if fallbacks.count > 1 {
            warnings.append("more than one of IMGPROXY_FALLBACK_IMAGE_PATH, _URL and _DATA is set: the first of them in that order is used")
        }
        if let port = configuration.metricsPort, port != 0, port == configuration.port, configuration.metricsHost == configuration.host {
            throw Failure(variable: "IMGPROXY_PROMETHEUS_BIND", problem: "the same address as the server's")
        }
    }

    /// The variables that allow source addresses.
    static let addressVariables: Set<String> = [
        "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES", "IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES", "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES",
    ]

    /// A value that cannot be read, or settings that do not go together: the server does not start.
    struct Failure: Error, CustomStringConvertible {
        /// The variable whose value it is.
        let variable: String
        /// What is wrong with it.
        let problem: String
        var description: String { "\(variable): \(problem)" }
    }

    /// One variable's value, with the readers of imgproxy's kinds of value.
    struct Value {
        let name: String
        let text: String

        func failure(_ problem: String) -> Failure { Failure(variable: name, problem: "\(problem), got \(text)") }

        /// Go's `strconv.ParseBool`, as imgproxy reads booleans: `1 t T TRUE true True` or `0 f F FALSE false False`.
        func bool() throws -> Bool {
            switch text.trimmingWhitespace() {
            case "1", "t", "T", "TRUE", "true", "True": return true
            case "0", "f", "F", "FALSE", "false", "False": return false
            default: throw failure("true or false")
            }
        }

        /// A whole number in `range`.
        func integer(in range: ClosedRange<Int>) throws -> Int {
            guard let value = Int(text.trimmingWhitespace()), range.contains(value) else {
                throw failure("a whole number \(range.lowerBound)–\(range.upperBound)")
            }
            return value
        }

        /// Megapixels (fractions allowed) as pixels, at least 1.
        func megapixels() throws -> Int {
            guard let value = Double(text.trimmingWhitespace()), value.isFinite, value > 0, value < 1e9 else { throw failure("megapixels above 0") }
            return max(1, Int(value * 1_000_000))
        }

        /// Comma-separated items, trimmed, the empty ones left out.
        var list: [String] { text.split(separator: ",").map { String($0.trimmingWhitespace()) }.filter { !$0.isEmpty } }

        /// HOST:PORT, [IPv6]:PORT or :PORT.
        func address() throws -> (host: String, port: Int) {
            do { return try ServeCommand.address(String(text.trimmingWhitespace())) } catch { throw failure("HOST:PORT with a port 0–65535") }
        }

        /// A format name, as imgproxy's `IMGPROXY_FORMAT_QUALITY` and `IMGPROXY_SKIP_PROCESSING_FORMATS` give them.
        func format(_ name: some StringProtocol) throws -> ImageFormat {
            do { return try ImgproxyOptions.format(Substring(name.trimmingWhitespace())) } catch { throw failure("formats Vignette writes (jpeg, png, webp, avif, …)") }
        }
    }

    /// How Vignette follows a variable.
    enum Support: Sendable {
        /// Read with imgproxy's meaning, units and default.
        case same
        /// Read; how it differs from imgproxy.
        case differs(String)
        /// Not read: why. A set value is named in a warning.
        case unsupported(String)
    }

    /// A row of `table`: imgproxy variables that Vignette follows the same way.
    struct Variable: Sendable {
        /// The variables (deprecated names after the current one).
        let names: [String]
        let support: Support
        /// The `VIGNETTE_*` variable (standing for its flag too) that wins over these.
        let twin: String?
        /// Puts a value into the settings; it may add a warning instead, for a value not supported.
        let apply: (@Sendable (Value, inout ImgproxyEnvironment) throws -> Void)?

        init(
            _ names: String..., support: Support = .same, twin: String? = nil,
            apply: (@Sendable (Value, inout ImgproxyEnvironment) throws -> Void)? = nil
        ) {
            self.names = names
            self.support = support
            self.twin = twin
            self.apply = apply
        }

        /// Variables not read, for `why`.
        static func unsupported(_ names: String..., why: String) -> Variable {
            Variable(names: names, support: .unsupported(why))
        }

        private init(names: [String], support: Support) {
            self.names = names
            self.support = support
            twin = nil
            apply = nil
        }
    }

    /// A warning for a value of `value`'s variable that Vignette does not follow.
    mutating func unsupported(_ value: Value, _ why: String) {
        warnings.append("\(value.name)=\(value.text) is not supported: \(why)")
    }
}

extension ImgproxyEnvironment {
    /// Every imgproxy configuration variable (imgproxy 3.31 and 4.0: its config code), and what
    /// `vignette serve` does with it.
    static let table: [Variable] = [
        // Server
        Variable("IMGPROXY_BIND", support: .differs("unset, Vignette listens on 127.0.0.1:8080 (imgproxy on :8080, every interface)"), twin: "VIGNETTE_BIND") { value, env in
            (env.configuration.host, env.configuration.port) = try value.address()
        },
        Variable("IMGPROXY_NETWORK", support: .differs("tcp only (the default): tcp4, tcp6 and Unix sockets are named in a warning")) { value, env in
            if value.text != "tcp" { env.unsupported(value, "Vignette listens on TCP only") }
        },
        Variable("IMGPROXY_TIMEOUT", "IMGPROXY_WRITE_TIMEOUT", twin: "VIGNETTE_TIMEOUT") { value, env in
            env.configuration.requestTimeout = .seconds(try value.integer(in: ServerConfiguration.Ranges.timeoutSeconds))
        },
        Variable("IMGPROXY_KEEP_ALIVE_TIMEOUT", support: .differs("1–3600 s; imgproxy's 0 (no keep-alive) is refused"), twin: "VIGNETTE_KEEP_ALIVE_TIMEOUT") { value, env in
            env.configuration.keepAliveTimeout = .seconds(try value.integer(in: ServerConfiguration.Ranges.timeoutSeconds))
        },
        Variable("IMGPROXY_GRACEFUL_STOP_TIMEOUT", twin: "VIGNETTE_SHUTDOWN_TIMEOUT") { value, env in
            env.shutdownSeconds = try value.integer(in: ServerConfiguration.Ranges.shutdownTimeoutSeconds)
        },
        Variable("IMGPROXY_WORKERS", "IMGPROXY_CONCURRENCY", twin: "VIGNETTE_MAX_CONCURRENCY") { value, env in
            env.configuration.maxConcurrentRequests = try value.integer(in: ServerConfiguration.Ranges.maxConcurrentRequests)
        },
        Variable("IMGPROXY_REQUESTS_QUEUE_SIZE", support: .differs("0 keeps Vignette's bound (1024 per slot) where imgproxy's queue is unbounded; a request past the queue is 503, not 429"), twin: "VIGNETTE_QUEUE") { value, env in
            let size = try value.integer(in: ServerConfiguration.Ranges.maxWaitingRequests)
            if size > 0 { env.configuration.maxWaitingRequests = size }
        },
        .unsupported("IMGPROXY_MAX_CLIENTS", why: "Vignette does not cap connections; the admission bounds work (IMGPROXY_WORKERS) and waiting requests (IMGPROXY_REQUESTS_QUEUE_SIZE)"),
        .unsupported("IMGPROXY_READ_REQUEST_TIMEOUT", "IMGPROXY_READ_TIMEOUT", why: "one idle timeout, IMGPROXY_KEEP_ALIVE_TIMEOUT, also bounds the wait for a request's head"),
        .unsupported("IMGPROXY_WRITE_RESPONSE_TIMEOUT", why: "there is no separate time limit for writing a response; IMGPROXY_TIMEOUT bounds the request"),
        .unsupported("IMGPROXY_CLIENT_KEEP_ALIVE_TIMEOUT", why: "the source loader's pooled connections have no setting for their idle time"),
        .unsupported("IMGPROXY_SO_REUSEPORT", why: "SO_REUSEPORT is not set"),
        Variable("IMGPROXY_PATH_PREFIX") { value, env in env.configuration.pathPrefix = value.text },
        Variable("IMGPROXY_HEALTH_CHECK_PATH") { value, env in env.configuration.healthCheckPath = value.text },
        Variable("IMGPROXY_ALLOW_ORIGIN") { value, env in env.configuration.allowedOrigin = value.text },
        Variable("IMGPROXY_SECRET") { value, env in env.configuration.authorizationSecret = value.text },
        Variable("IMGPROXY_DEVELOPMENT_ERRORS_MODE", support: .differs("the error in full follows the reason in the answer's text")) { value, env in
            env.configuration.detailedErrors = try value.bool()
        },
        Variable("IMGPROXY_TTL", twin: "VIGNETTE_MAX_AGE") { value, env in
            env.configuration.cacheMaxAge = try value.integer(in: ServerConfiguration.Ranges.cacheMaxAge)
        },
        Variable("IMGPROXY_CACHE_CONTROL_PASSTHROUGH", support: .differs("false only (the default): the source's Cache-Control and Expires do not travel with a result through the pipeline and its caches; true is named in a warning")) { value, env in
            if try value.bool() {
                env.unsupported(value, "the source's Cache-Control and Expires do not travel with a result through the pipeline and its caches")
            }
        },
        .unsupported("IMGPROXY_SET_CANONICAL_HEADER", why: "no Link: rel=canonical header is sent"),
        Variable("IMGPROXY_USE_ETAG", support: .differs("ETags are always sent (strong, from the result's key): true is the same, false is not supported")) { value, env in
            if !(try value.bool()) { env.unsupported(value, "every result carries an ETag") }
        },
        .unsupported("IMGPROXY_ETAG_BUSTER", why: "the ETag is the result's key; the cachebuster option changes it per URL"),
        Variable("IMGPROXY_USE_LAST_MODIFIED", support: .differs("Last-Modified is always sent for local files, never for others")) { _, _ in },
        .unsupported("IMGPROXY_LAST_MODIFIED_BUSTER", why: "Last-Modified is the local file's modification time"),
        .unsupported("IMGPROXY_FREE_MEMORY_INTERVAL", "IMGPROXY_LOG_MEM_STATS", "IMGPROXY_DOWNLOAD_BUFFER_SIZE", "IMGPROXY_BUFFER_POOL_CALIBRATION_THRESHOLD",
                     why: "Go runtime settings; Vignette's memory is capped by its caches' sizes and glibc's arenas (see the memory caps log line)"),
        .unsupported("IMGPROXY_PPROF_BIND", why: "Go's pprof; Vignette's process metrics are at /metrics"),
        .unsupported("IMGPROXY_VIPS_CACHE_TRACE", "IMGPROXY_VIPS_LEAK_CHECK", why: "libvips debugging switches are not exposed"),

        // Security
        Variable("IMGPROXY_KEY", twin: "VIGNETTE_KEY") { value, env in env.keys = value.text },
        Variable("IMGPROXY_SALT", twin: "VIGNETTE_SALT") { value, env in env.salts = value.text },
        Variable("IMGPROXY_SIGNATURE_SIZE") { value, env in
            env.configuration.signatureSize = try value.integer(in: ServerConfiguration.Ranges.signatureSize)
        },
        Variable("IMGPROXY_TRUSTED_SIGNATURES") { value, env in env.configuration.trustedSignatures = value.list },
        Variable("IMGPROXY_ALLOWED_SOURCES", support: .differs("plain prefixes only (a * wildcard stops the server); they apply to http(s) and s3 sources, local ones are served under the root"), twin: "VIGNETTE_ALLOW_SOURCE") { value, env in
            let prefixes = value.list
            if let pattern = prefixes.first(where: { $0.contains("*") }) {
                throw value.failure("plain prefixes: the * wildcard of \(pattern) is not supported")
            }
            env.configuration.allowedSourcePrefixes = prefixes
        },
        Variable("IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES", support: .differs("with IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES: both true allow every non-public address, one alone is not supported"), twin: "VIGNETTE_ALLOW_PRIVATE_SOURCES") { value, env in
            env.allowLoopback = try value.bool()
        },
        Variable("IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES", support: .differs("as IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES"), twin: "VIGNETTE_ALLOW_PRIVATE_SOURCES") { value, env in
            env.allowLinkLocal = try value.bool()
        },
        Variable("IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES", support: .differs("private addresses are refused unless loopback and link-local ones are allowed too (imgproxy allows them by default)"), twin: "VIGNETTE_ALLOW_PRIVATE_SOURCES") { value, env in
            env.allowPrivate = try value.bool()
        },
        Variable("IMGPROXY_MAX_SRC_RESOLUTION", support: .differs("megapixels as in imgproxy; unset, Vignette's 500 is the limit (imgproxy's 50), and its decoded-pixel and memory budgets apply too")) { value, env in
            let pixels = try value.megapixels()
            env.updateLimits { $0.maxSourcePixels = pixels }
        },
        Variable("IMGPROXY_MAX_SRC_FILE_SIZE", support: .differs("0 (imgproxy's no limit) keeps Vignette's 100 MiB")) { value, env in
            let bytes = try value.integer(in: 0...Int(Int32.max))
            if bytes > 0 { env.updateLimits { $0.maxInputBytes = bytes } }
        },
        Variable("IMGPROXY_MAX_ANIMATION_FRAMES", support: .differs("1 makes stills of the first frame and above 1 frames past it are dropped, as in imgproxy; unset, animations keep up to 1000 frames (imgproxy: 1)")) { value, env in
            let frames = try value.integer(in: 1...1_000_000)
            env.configuration.keepsAnimation = frames > 1
            if frames > 1 { env.updateLimits { $0.maxFrames = frames } }
        },
        Variable("IMGPROXY_MAX_ANIMATION_FRAME_RESOLUTION", support: .differs("megapixels a frame of an animation kept whole may have (0: no limit of its own); an animation's frames count against Vignette's decoded-pixel budget either way, where imgproxy checks their sum against IMGPROXY_MAX_SRC_RESOLUTION when it is 0")) { value, env in
            let pixels = value.text.trimmingWhitespace() == "0" ? Int.max : try value.megapixels()
            env.updateLimits { $0.maxAnimationFramePixels = pixels }
        },
        Variable("IMGPROXY_MAX_RESULT_DIMENSION") { value, env in
            let side = try value.integer(in: 0...ServerConfiguration.Ranges.resultDimension.upperBound)
            env.configuration.maxResultDimension = side > 0 ? side : nil
        },
        .unsupported("IMGPROXY_MAX_SVG_CHECK_BYTES", why: "SVG sources are sanitised whole, within the byte limit"),
        .unsupported("IMGPROXY_MAX_REDIRECTS", why: "the server follows no redirects (each hop would need its own address check)"),
        Variable("IMGPROXY_ALLOW_SECURITY_OPTIONS", support: .differs("max_src_resolution and the other security options are always read, and may only lower the server's limits")) { _, _ in },
        .unsupported("IMGPROXY_ALLOWED_PROCESSING_OPTIONS", why: "every processing option is read"),
        .unsupported("IMGPROXY_PNG_UNLIMITED", "IMGPROXY_SVG_UNLIMITED", "IMGPROXY_TIFF_UNLIMITED", why: "libvips' unlimited flags are never set; sources stay within the decoding budget"),
        Variable("IMGPROXY_SANITIZE_SVG", support: .differs("SVG sources are always sanitised: true is the same, false is not supported")) { value, env in
            if !(try value.bool()) { env.unsupported(value, "SVG sources are always sanitised") }
        },
        .unsupported("IMGPROXY_IGNORE_SSL_VERIFICATION", why: "certificates of https sources are always verified"),

        // Presets and URLs
        Variable("IMGPROXY_PRESETS", twin: "VIGNETTE_PRESET") { value, env in env.presetsText = value.text },
        Variable("IMGPROXY_PRESETS_SEPARATOR") { value, env in env.presetsSeparator = value.text },
        Variable("IMGPROXY_PRESETS_PATH", twin: "VIGNETTE_PRESET") { value, env in env.presetsPath = value.text },
        Variable("IMGPROXY_ONLY_PRESETS") { value, env in env.configuration.onlyPresets = try value.bool() },
        Variable("IMGPROXY_BASE_URL") { value, env in env.configuration.sourceBaseURL = value.text },
        .unsupported("IMGPROXY_URL_REPLACEMENTS", why: "source URLs are not rewritten"),
        .unsupported("IMGPROXY_BASE64_URL_INCLUDES_FILENAME", why: "a base64 source is read whole"),
        Variable("IMGPROXY_ARGUMENTS_SEPARATOR", support: .differs(": only (the default); another separator is named in a warning")) { value, env in
            if value.text != ":" { env.unsupported(value, "arguments are separated by :") }
        },
        .unsupported("IMGPROXY_SOURCE_URL_QUERY_SEPARATOR", why: "a plain source's query is part of it"),
        Variable("IMGPROXY_USER_AGENT", support: .differs("%current_version is written vignette")) { value, env in
            env.configuration.userAgent = value.text.replacing("%current_version", with: "vignette")
        },

        // Formats and quality
        Variable("IMGPROXY_QUALITY", support: .differs("unset, each format has Vignette's default (80; AVIF and HEIC 50)")) { value, env in
            env.configuration.defaultQuality = try value.integer(in: ServerConfiguration.Ranges.quality)
        },
        Variable("IMGPROXY_FORMAT_QUALITY", support: .differs("imgproxy's own defaults (webp 79, avif 63, jxl 77) are not added: a format not listed takes IMGPROXY_QUALITY")) { value, env in
            for pair in value.list {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, let quality = Int(parts[1].trimmingWhitespace()), ServerConfiguration.Ranges.quality.contains(quality) else {
                    throw value.failure("FORMAT=QUALITY pairs, the quality 1–100")
                }
                let format = try value.format(parts[0])
                env.configuration.defaultFormatQuality[format] = quality
            }
        },
        Variable("IMGPROXY_AUTO_WEBP", "IMGPROXY_ENABLE_WEBP_DETECTION", support: .differs("unset, on: Vignette chooses WebP (and AVIF) from Accept by default")) { value, env in
            try env.setFormat(.webp, in: \.autoFormats, value.bool())
        },
        Variable("IMGPROXY_AUTO_AVIF", "IMGPROXY_ENABLE_AVIF_DETECTION", support: .differs("unset, on, as IMGPROXY_AUTO_WEBP; an animated source may be made AVIF too (a still of its first frame), where imgproxy keeps it animated in another format")) { value, env in
            try env.setFormat(.avif, in: \.autoFormats, value.bool())
        },
        Variable("IMGPROXY_AUTO_JXL") { value, env in try env.setFormat(.jxl, in: \.autoFormats, value.bool()) },
        Variable("IMGPROXY_ENFORCE_WEBP") { value, env in try env.setFormat(.webp, in: \.enforcedFormats, value.bool()) },
        Variable("IMGPROXY_ENFORCE_AVIF", support: .differs("an animated source is made AVIF too (a still of its first frame), where imgproxy keeps the URL's format")) { value, env in
            try env.setFormat(.avif, in: \.enforcedFormats, value.bool())
        },
        Variable("IMGPROXY_ENFORCE_JXL") { value, env in try env.setFormat(.jxl, in: \.enforcedFormats, value.bool()) },
        Variable("IMGPROXY_SKIP_PROCESSING_FORMATS") { value, env in
            let formats = try value.list.map { try value.format($0) }
            if !formats.isEmpty { env.defaultOptions.append((["skp"] + formats.map(\.fileExtension)).joined(separator: ":")) }
        },
        Variable("IMGPROXY_RETURN_ATTACHMENT") { value, env in if try value.bool() { env.defaultOptions.append("att:1") } },
        .unsupported("IMGPROXY_ENABLE_CLIENT_HINTS", why: "client hints (Sec-CH-DPR, Sec-CH-Width) are not read"),
        .unsupported("IMGPROXY_JPEG_PROGRESSIVE", "IMGPROXY_PNG_INTERLACED", "IMGPROXY_PNG_QUANTIZE", "IMGPROXY_PNG_QUANTIZATION_COLORS",
                     "IMGPROXY_AVIF_SPEED", "IMGPROXY_JXL_EFFORT", "IMGPROXY_WEBP_EFFORT", "IMGPROXY_WEBP_PRESET",
                     why: "the encoders' settings are Vignette's own"),
        Variable("IMGPROXY_STRIP_METADATA") { value, env in if !(try value.bool()) { env.defaultOptions.append("sm:0") } },
        Variable("IMGPROXY_KEEP_COPYRIGHT", support: .differs("read and ignored: metadata is stripped whole or kept whole, there is no copyright-only subset")) { value, _ in
            _ = try value.bool()
        },
        Variable("IMGPROXY_STRIP_COLOR_PROFILE") { value, env in if !(try value.bool()) { env.defaultOptions.append("scp:0") } },
        Variable("IMGPROXY_AUTO_ROTATE") { value, env in if !(try value.bool()) { env.defaultOptions.append("ar:0") } },
        Variable("IMGPROXY_ENFORCE_THUMBNAIL", support: .differs("read and ignored: an embedded thumbnail is used whenever it covers the result")) { value, _ in
            _ = try value.bool()
        },
        Variable("IMGPROXY_PRESERVE_HDR", support: .differs("false only (the default): results are 8-bit; true is named in a warning (Vignette's preserve_hdr option keeps a JPEG's HDR gain map instead)")) { value, env in
            if try value.bool() { env.unsupported(value, "results are 8-bit SDR (a JPEG's HDR gain map is kept by default, see preserve_hdr)") }
        },
        .unsupported("IMGPROXY_USE_LINEAR_COLORSPACE", why: "images are not resized in linear light"),
        .unsupported("IMGPROXY_DISABLE_SHRINK_ON_LOAD", why: "shrink-on-load cannot be turned off"),
        Variable("IMGPROXY_ALWAYS_RASTERIZE_SVG", support: .differs("SVG sources are always rasterised unless the URL names svg: true is the same, false is not supported")) { value, env in
            if !(try value.bool()) { env.unsupported(value, "SVG sources are rasterised unless the URL names svg") }
        },

        // Watermark and fallback image
        Variable("IMGPROXY_WATERMARK_PATH", twin: "VIGNETTE_WATERMARK") { value, env in env.configuration.watermarkPath = value.text },
        .unsupported("IMGPROXY_WATERMARK_DATA", "IMGPROXY_WATERMARK_URL", why: "the watermark is read from a file: IMGPROXY_WATERMARK_PATH"),
        .unsupported("IMGPROXY_WATERMARK_OPACITY", why: "the watermark is drawn at the URL's opacity alone"),
        Variable("IMGPROXY_FALLBACK_IMAGE_PATH") { value, env in env.fallbackPath = value.text },
        Variable("IMGPROXY_FALLBACK_IMAGE_URL", support: .differs("fetched when a fallback is needed, not at start, through the source loader (its limits, no redirects) without the private-address check")) { value, env in
            env.fallbackURL = value.text
        },
        Variable("IMGPROXY_FALLBACK_IMAGE_DATA") { value, env in env.fallbackData = value.text },
        Variable("IMGPROXY_FALLBACK_IMAGE_HTTP_CODE") { value, env in
            let status = try value.integer(in: 0...ServerConfiguration.Ranges.status.upperBound)
            guard status == 0 || ServerConfiguration.Ranges.status.contains(status) else { throw value.failure("0 or an HTTP status 100–599") }
            env.configuration.fallbackImageStatus = status == 0 ? nil : status
        },
        Variable("IMGPROXY_FALLBACK_IMAGE_TTL") { value, env in
            let seconds = try value.integer(in: ServerConfiguration.Ranges.cacheMaxAge)
            env.configuration.fallbackImageMaxAge = seconds > 0 ? seconds : nil
        },

        // Sources
        Variable("IMGPROXY_LOCAL_FILESYSTEM_ROOT", twin: "VIGNETTE_ROOT") { value, env in env.configuration.localRoot = value.text },
        Variable("IMGPROXY_DOWNLOAD_TIMEOUT", support: .differs("bounds the wait for the source's answer and for each next part of its body, not the whole download (IMGPROXY_TIMEOUT bounds that)")) { value, env in
            env.configuration.downloadTimeout = .seconds(try value.integer(in: ServerConfiguration.Ranges.timeoutSeconds))
        },
        Variable("IMGPROXY_USE_S3", support: .differs("credentials come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) only"), twin: "VIGNETTE_S3") { value, env in
            env.useS3 = try value.bool()
        },
        Variable("IMGPROXY_S3_ENDPOINT", support: .differs("always path-style"), twin: "VIGNETTE_S3_ENDPOINT") { value, env in env.s3Endpoint = value.text },
        Variable("IMGPROXY_S3_REGION") { value, env in env.s3Region = value.text },
        Variable("IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE", support: .differs("true only (the default): an endpoint is always path-style")) { value, env in
            if !(try value.bool()) { env.unsupported(value, "an S3 endpoint is always read path-style") }
        },
        .unsupported("IMGPROXY_S3_ASSUME_ROLE_ARN", "IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID", why: "S3 credentials come from the environment only, no STS"),
        .unsupported("IMGPROXY_S3_USE_DECRYPTION_CLIENT", why: "client-side encrypted objects are not decrypted"),
        .unsupported("IMGPROXY_S3_ACCESS_POINTS", why: "access point ARNs are not mapped"),
        .unsupported("IMGPROXY_S3_ALLOWED_BUCKETS", "IMGPROXY_S3_DENIED_BUCKETS", why: "use IMGPROXY_ALLOWED_SOURCES with s3://BUCKET/ prefixes"),
        .unsupported("IMGPROXY_USE_GCS", "IMGPROXY_GCS_KEY", "IMGPROXY_GCS_ENDPOINT", "IMGPROXY_GCS_ALLOWED_BUCKETS", "IMGPROXY_GCS_DENIED_BUCKETS",
                     why: "Google Cloud Storage is read through its S3 API with HMAC keys (IMGPROXY_USE_S3 and IMGPROXY_S3_ENDPOINT=https://storage.googleapis.com)"),
        .unsupported("IMGPROXY_USE_ABS", "IMGPROXY_ABS_NAME", "IMGPROXY_ABS_KEY", "IMGPROXY_ABS_ENDPOINT", "IMGPROXY_ABS_ALLOWED_BUCKETS", "IMGPROXY_ABS_DENIED_BUCKETS",
                     why: "Azure Blob Storage is not a source"),
        .unsupported("IMGPROXY_USE_SWIFT", "IMGPROXY_SWIFT_USERNAME", "IMGPROXY_SWIFT_API_KEY", "IMGPROXY_SWIFT_AUTH_URL", "IMGPROXY_SWIFT_DOMAIN",
                     "IMGPROXY_SWIFT_TENANT", "IMGPROXY_SWIFT_AUTH_VERSION", "IMGPROXY_SWIFT_CONNECT_TIMEOUT_SECONDS", "IMGPROXY_SWIFT_TIMEOUT_SECONDS",
                     "IMGPROXY_SWIFT_ALLOWED_BUCKETS", "IMGPROXY_SWIFT_DENIED_BUCKETS", why: "OpenStack Swift is not a source"),
        .unsupported("IMGPROXY_COOKIE_PASSTHROUGH", "IMGPROXY_COOKIE_BASE_URL", "IMGPROXY_COOKIE_PASSTHROUGH_ALL", why: "the client's cookies are never sent to sources"),

        // Logs and monitoring
        Variable("IMGPROXY_LOG_LEVEL") { value, env in
            guard let level = ["debug": Logger.Level.debug, "info": .info, "warn": .warning, "error": .error][value.text.lowercased()] else {
                throw value.failure("debug, info, warn or error")
            }
            env.logLevel = level
        },
        Variable("IMGPROXY_LOG_FORMAT", support: .differs("json and gcp are JSON lines with imgproxy's field names; pretty and structured are swift-log's text lines")) { value, env in
            guard let format = ["pretty": LogFormat.text, "structured": .text, "json": .json, "gcp": .gcp][value.text.lowercased()] else {
                throw value.failure("pretty, structured, json or gcp")
            }
            env.logFormat = format
        },
        .unsupported("IMGPROXY_SYSLOG_ENABLE", "IMGPROXY_SYSLOG_NETWORK", "IMGPROXY_SYSLOG_ADDRESS", "IMGPROXY_SYSLOG_TAG", "IMGPROXY_SYSLOG_LEVEL",
                     why: "logs go to standard error only"),
        .unsupported("IMGPROXY_FAIL_ON_DEPRECATION", why: "deprecated names are read as their new ones"),
        Variable("IMGPROXY_PROMETHEUS_BIND", support: .differs("Vignette's own metrics (vignette_*), not imgproxy's; /metrics then leaves the main port")) { value, env in
            (env.configuration.metricsHost, env.configuration.metricsPort) = try value.address()
        },
        .unsupported("IMGPROXY_PROMETHEUS_NAMESPACE", why: "metric names are fixed (vignette_*)"),
        Variable("IMGPROXY_OPEN_TELEMETRY_ENABLE", support: .differs("traces are exported whenever OTEL_EXPORTER_OTLP_ENDPOINT names a collector")) { value, _ in
            _ = try value.bool()
        },
        .unsupported("IMGPROXY_OPEN_TELEMETRY_ENABLE_METRICS", "IMGPROXY_OPEN_TELEMETRY_ENABLE_LOGS", "IMGPROXY_OPEN_TELEMETRY_SERVER_CERT",
                     "IMGPROXY_OPEN_TELEMETRY_CLIENT_CERT", "IMGPROXY_OPEN_TELEMETRY_CLIENT_KEY", "IMGPROXY_OPEN_TELEMETRY_TRACE_ID_GENERATOR",
                     "IMGPROXY_OPEN_TELEMETRY_PROPAGATE_EXTERNAL", "IMGPROXY_OPEN_TELEMETRY_LOGGER_NAME", "IMGPROXY_OPEN_TELEMETRY_ENDPOINT",
                     "IMGPROXY_OPEN_TELEMETRY_PROTOCOL", "IMGPROXY_OPEN_TELEMETRY_SERVICE_NAME", "IMGPROXY_OPEN_TELEMETRY_PROPAGATORS",
                     "IMGPROXY_OPEN_TELEMETRY_CONNECTION_TIMEOUT", "IMGPROXY_OPEN_TELEMETRY_GRPC_INSECURE",
                     why: "only traces are exported, over OTLP/HTTP, configured by the standard OTEL_* variables"),
        .unsupported("IMGPROXY_NEW_RELIC_APP_NAME", "IMGPROXY_NEW_RELIC_KEY", "IMGPROXY_NEW_RELIC_LABELS", "IMGPROXY_NEW_RELIC_PROPAGATE_EXTERNAL",
                     why: "New Relic is not built in (traces go out over OTLP)"),
        .unsupported("IMGPROXY_DATADOG_ENABLE", "IMGPROXY_DATADOG_ENABLE_ADDITIONAL_METRICS", "IMGPROXY_DATADOG_PROPAGATE_EXTERNAL",
                     why: "Datadog is not built in (traces go out over OTLP)"),
        .unsupported("IMGPROXY_CLOUD_WATCH_SERVICE_NAME", "IMGPROXY_CLOUD_WATCH_NAMESPACE", "IMGPROXY_CLOUD_WATCH_REGION", why: "CloudWatch is not built in"),
        .unsupported("IMGPROXY_BUGSNAG_KEY", "IMGPROXY_BUGSNAG_STAGE", "IMGPROXY_HONEYBADGER_KEY", "IMGPROXY_HONEYBADGER_ENV", "IMGPROXY_SENTRY_DSN",
                     "IMGPROXY_SENTRY_ENVIRONMENT", "IMGPROXY_SENTRY_RELEASE", "IMGPROXY_AIRBRAKE_PROJECT_ID", "IMGPROXY_AIRBRAKE_PROJECT_KEY",
                     "IMGPROXY_AIRBRAKE_ENVIRONMENT", "IMGPROXY_REPORT_DOWNLOADING_ERRORS", "IMGPROXY_REPORT_IO_ERRORS",
                     why: "no error reporting service is built in; failures go to the log"),
        .unsupported("IMGPROXY_ENABLE_DEBUG_HEADERS", why: "no debug headers are sent"),
        .unsupported("IMGPROXY_ENV_LOCAL_FILE_PATH", "IMGPROXY_ENV_AWS_SECRET_ID", "IMGPROXY_ENV_AWS_SECRET_VERSION_ID", "IMGPROXY_ENV_AWS_SECRET_VERSION_STAGE",
                     "IMGPROXY_ENV_AWS_SECRET_REGION", "IMGPROXY_ENV_AWS_SSM_PARAMETERS_PATH", "IMGPROXY_ENV_AWS_SSM_PARAMETERS_REGION",
                     "IMGPROXY_ENV_GCP_KEY", "IMGPROXY_ENV_GCP_SECRET_ID", "IMGPROXY_ENV_GCP_SECRET_VERSION_ID", "IMGPROXY_ENV_GCP_SECRET_PROJECT_ID",
                     why: "settings are read from the process' environment only; load such files or secrets into it before starting"),
    ] + searchVariables
}

extension ImgproxyEnvironment {
    /// `configuration`'s decoding limits changed by `change`. (Its getter leaves out the source
    /// kinds not allowed yet; they are put back, so that `--allow-pdf` still adds PDF later.)
    mutating func updateLimits(_ change: (inout DecodingLimits) -> Void) {
        var limits = configuration.decodingLimits
        limits.allowedInputs = .all
        change(&limits)
        configuration.decodingLimits = limits
    }

    /// `format` put into, or taken out of, the set of formats at `set`.
    mutating func setFormat(_ format: ImageFormat, in set: WritableKeyPath<ServerConfiguration, Set<ImageFormat>>, _ on: Bool) {
        if on { configuration[keyPath: set].insert(format) } else { configuration[keyPath: set].remove(format) }
    }
}
