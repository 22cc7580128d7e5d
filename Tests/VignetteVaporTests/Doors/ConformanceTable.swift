import Foundation
import Vignette
import VignetteImgproxy
import VignetteServer

/// The conformance table: configurations (each setting of `ServerConfiguration` on its own, and a
/// few together) and the requests every row sends through every door.
enum ConformanceTable {
    static let key = "0123456789abcdef"
    static let salt = "00"
    static let secret = "s3cret"
    static let origin = "https://app.example"

    /// One configuration: what it is called, the stored properties of `ServerConfiguration` it
    /// covers (`Mirror`'s labels), and the change from `base`.
    struct Row: Sendable, CustomStringConvertible {
        let name: String
        let covers: [String]
        let configure: @Sendable (inout ServerConfiguration) -> Void
        var description: String { name }

        init(_ name: String, covers: [String]? = nil, _ configure: @escaping @Sendable (inout ServerConfiguration) -> Void) {
            self.name = name
            self.covers = covers ?? [name]
            self.configure = configure
        }

        /// `base` with this row's change.
        var configuration: ServerConfiguration {
            var configuration = ConformanceTable.base
            configure(&configuration)
            return configuration
        }
    }

    /// Every row's start: the repository's Fixtures/ as the local root, the rest as it comes.
    static var base: ServerConfiguration { ServerConfiguration(host: "127.0.0.1", port: 0, localRoot: fixtures) }

    static let signed: @Sendable (inout ServerConfiguration) -> Void = {
        $0.signatureKey = key
        $0.signatureSalt = salt
    }
    static let fallback: @Sendable (inout ServerConfiguration) -> Void = { $0.fallbackImage = .file(fixtures + "/alpha.png") }

    static let rows: [Row] = [
        Row("defaults", covers: []) { _ in },
        Row("localRoot") { $0.localRoot = nil },
        Row("allowedSourcePrefixes") { $0.allowedSourcePrefixes = ["http://127.0.0.1:9/allowed/"] },
        Row("allowsLocalNetworks", covers: ["allowsLocalNetworks", "downloadTimeout"]) {
            $0.allowsLocalNetworks = true
            $0.downloadTimeout = .seconds(1)
        },
        Row("signatureKey", covers: ["signatureKey", "signatureSalt"], signed),
        Row("presets") { $0.presets = ["thumb": "rs:fill:20:20/q:50"] },
        Row("maxConcurrentRequests") { $0.maxConcurrentRequests = 1 },
        Row("maxQueueWait") { $0.maxQueueWait = .seconds(5) },
        Row("maxWaitingRequests") { $0.maxWaitingRequests = 2 },
        Row("requestTimeout") { $0.requestTimeout = .seconds(20) },
        Row("cacheMaxAge") { $0.cacheMaxAge = 60 },
        Row("errorCacheMaxAge") { $0.errorCacheMaxAge = 3 },
        Row("decodingLimits", covers: ["configuredLimits"]) { $0.decodingLimits.maxPixels = 1000 },
        Row("allowedInputs") { $0.allowedInputs = .all },
        Row("cacheFolder", covers: ["cacheFolder", "cacheSizeLimit"]) {
            $0.cacheFolder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-doors-\(UUID().uuidString)").path
            $0.cacheSizeLimit = 1 << 20
        },
        Row("memoryCacheSizeLimit") { $0.memoryCacheSizeLimit = 0 },
        Row("watermarkPath") { $0.watermarkPath = fixtures + "/alpha.png" },
        Row("signatureSize") {
            signed(&$0)
            $0.signatureSize = 8
        },
        Row("trustedSignatures") {
            signed(&$0)
            $0.trustedSignatures = ["trusted"]
        },
        Row("onlyPresets", covers: ["onlyPresets", "presets"]) {
            $0.presets = ["thumb": "rs:fill:20:20/q:50"]
            $0.onlyPresets = true
        },
        Row("authorizationSecret") { $0.authorizationSecret = secret },
        Row("pathPrefix") { $0.pathPrefix = "/img" },
        Row("healthCheckPath") { $0.healthCheckPath = "/healthz" },
        Row("allowedOrigin") { $0.allowedOrigin = origin },
        Row("sourceBaseURL") { $0.sourceBaseURL = "local:///" },
        Row("autoFormats") { $0.autoFormats = [.jxl, .webp] },
        Row("no autoFormats", covers: ["autoFormats"]) { $0.autoFormats = [] },
        Row("enforcedFormats") { $0.enforcedFormats = [.webp] },
        Row("defaultQuality") { $0.defaultQuality = 40 },
        Row("defaultFormatQuality") { $0.defaultFormatQuality = [.webp: 30, .png: 20] },
        Row("keepsAnimation") { $0.keepsAnimation = false },
        Row("maxResultDimension") { $0.maxResultDimension = 16 },
        Row("autoQuality") { $0.autoQuality.method = .ssimulacra2 },
        Row("bestFormat", covers: ["bestFormat", "bestFormatByDefault"]) {
            $0.bestFormatByDefault = true
            $0.bestFormat.passesSourceThrough = false
        },
        Row("bestFormatAllowsSkips", covers: ["bestFormatAllowsSkips", "bestFormatByDefault"]) {
            $0.bestFormatByDefault = true
            $0.bestFormatAllowsSkips = true
        },
        Row("fallbackImage", fallback),
        Row("fallbackImageStatus") {
            fallback(&$0)
            $0.fallbackImageStatus = nil
        },
        Row("fallbackImageMaxAge") {
            fallback(&$0)
            $0.fallbackImageMaxAge = 60
        },
        Row("downloadTimeout") { $0.downloadTimeout = .seconds(2) },
        Row("userAgent") { $0.userAgent = "doors-test" },
        Row("detailedErrors") { $0.detailedErrors = true },
        Row("metricsPort") { $0.metricsPort = 0 },
        // Together: the issue's example, and the access rules with the routing ones.
        Row("secret + origin", covers: ["authorizationSecret", "allowedOrigin"]) {
            $0.authorizationSecret = secret
            $0.allowedOrigin = origin
        },
        Row("secret + origin + prefix + health path + key", covers: ["authorizationSecret", "allowedOrigin", "pathPrefix", "healthCheckPath"]) {
            signed(&$0)
            $0.authorizationSecret = secret
            $0.allowedOrigin = origin
            $0.pathPrefix = "img/"
            $0.healthCheckPath = "status/live"
        },
        Row("key + only presets + trusted", covers: ["onlyPresets", "trustedSignatures"]) {
            signed(&$0)
            $0.presets = ["thumb": "rs:fill:20:20/q:50"]
            $0.onlyPresets = true
            $0.trustedSignatures = ["trusted"]
        },
        Row("fallback + local networks + origin", covers: ["fallbackImage", "allowsLocalNetworks", "allowedOrigin"]) {
            fallback(&$0)
            $0.allowsLocalNetworks = true
            $0.downloadTimeout = .seconds(1)
            $0.allowedOrigin = origin
        },
    ]

    /// Stored properties with no row, and why: each is a setting of a door's listener, or needs a
    /// service of its own that other suites start.
    static let exempt: [String: String] = [
        "host": "where `vignette serve` listens; an application mounting the server listens where it says",
        "port": "where `vignette serve` listens; an application mounting the server listens where it says",
        "keepAliveTimeout": "the idle time of `vignette serve`'s connections; an application's own are its own",
        "metricsHost": "the address of the metrics listener that `run()` starts beside `vignette serve`",
        "redis": "a shared cache tier that changes no answer; needs a redis-server (RedisDataCache's and the server's Redis tests)",
        "s3": "needs an S3 endpoint (moto: S3SourceTests)",
        "faceModelPath": "needs the YuNet model from ../shared/models (FaceServerTests)",
    ]

    /// A request of the table: sent as it is through every door.
    struct Request: Sendable, CustomStringConvertible {
        let method: String
        let path: String
        let headers: [(String, String)]
        /// Whether the body is compared: not for `/metrics`, whose timings differ between servers.
        var comparesBody = true
        var description: String { "\(method) \(path) \(headers.map { "\($0.0): \($0.1)" })" }
    }

    /// `path` signed with the table's key: "/SIGNATURE/path".
    static func sign(_ path: String) -> String {
        "/" + (URLSignature(keyHex: key, saltHex: salt)?.signature(of: path[...]) ?? "unsigned") + path
    }

    static let image = "/rs:fit:32:32/plain/local:///baseline.jpg@png"
    static let negotiated = "/rs:fit:32:32/plain/local:///baseline.jpg"

    static func get(_ path: String, _ headers: [(String, String)] = []) -> Request { Request(method: "GET", path: path, headers: headers) }

    static let requests: [Request] = [
        get("/health"), get("/ready"), get("/healthz"), get("/status/live"), get("/"),
        Request(method: "GET", path: "/metrics", headers: [], comparesBody: false),
        get(sign(image)), get("/insecure" + image), get("/wrongsignature" + image),
        get(sign(image), [("Authorization", "Bearer " + secret)]), get(sign(image), [("Authorization", "Bearer wrong")]),
        get("/trusted" + image),
        Request(method: "OPTIONS", path: sign(image), headers: [("Origin", origin)]),
        Request(method: "HEAD", path: sign(image), headers: []),
        Request(method: "POST", path: sign(image), headers: []),
        Request(method: "DELETE", path: "/health", headers: []),
        get(sign("/pr:thumb/plain/local:///baseline.jpg@png")), get(sign("/thumb/plain/local:///baseline.jpg@png")),
        get(sign("/rs:fit:32:32/plain/http://127.0.0.1:9/x.jpg@png")),
        get(sign("/rs:fit:32:32/plain/local:///no-such-file.jpg@png")), get(sign("/rs:fit:32:32/plain/local:///corrupt.jpg@png")),
        get(sign("/rs:fit:32:32/plain/baseline.jpg@png")), get(sign("/rs:fit:32:32/plain/local:///no%20such%2Cfile.jpg@png")),
        get(sign(negotiated)), get(sign(negotiated), [("Accept", "image/avif,image/webp,*/*")]),
        get(sign(negotiated), [("Accept", "image/webp,*/*")]), get(sign(negotiated), [("Accept", "image/jxl,*/*")]),
        get(sign("/rs:fit:32:32/plain/local:///baseline.jpg@jpg"), [("Accept", "image/webp,*/*")]),
        get(sign("/rs:fit:32:32/plain/local:///animated.gif@webp")), get(sign("/wm:0.5:ce/rs:fit:32:32/plain/local:///baseline.jpg@png")),
        get("/info" + sign("/plain/local:///baseline.jpg")),
        get("/placeholder/thumbhash" + sign("/rs:fit:32:32/plain/local:///baseline.jpg")),
        get("/img/health"), get("/img/status/live"), get("/img" + sign(image)), get("/img" + sign(image), [("Authorization", "Bearer " + secret)]),
        get("/img/info" + sign("/plain/local:///baseline.jpg"), [("Authorization", "Bearer " + secret)]),
        Request(method: "OPTIONS", path: "/img" + sign(image), headers: [("Origin", origin)]),
        get("/imgx/health"), get(sign(image) + "?v=1"), get("//health"), get("/health/"), get("/info"), get("/placeholder/blurhash"),
    ]

    /// The repository's Fixtures/ folder.
    static var fixtures: String { Fixtures.folder }
}
