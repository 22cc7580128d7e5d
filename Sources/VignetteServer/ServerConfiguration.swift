import Vignette
import VignetteHTTP
import VignetteRedis

/// What `vignette serve` (and `ThumbnailServer`) listens on, what it serves and how much it takes on.
public struct ServerConfiguration: Sendable {
    /// The address to bind (default 127.0.0.1; 0.0.0.0 for every interface).
    public var host: String
    /// The port (default 8080; 0 lets the kernel pick one, which `ThumbnailServer` reports).
    public var port: Int
    /// The folder `local:///…` sources are read from; nil refuses local sources.
    public var localRoot: String?
    /// http(s) and s3 sources must start with one of these (e.g. `https://images.example.com/`,
    /// `s3://photos/`); empty allows every http(s) source that passes the address check, and every
    /// s3 source when `s3` is set.
    public var allowedSourcePrefixes: [String]
    /// Whether sources may be on loopback, private, link-local, multicast or unspecified
    /// addresses (off by default: the server refuses them, against server-side request forgery).
    public var allowsLocalNetworks: Bool
    /// The URL signing key and salt, hex-encoded; nil accepts any signature segment (`insecure`).
    public var signatureKey: String?
    /// The salt, hex-encoded, put before the path when signing (nil: empty).
    public var signatureSalt: String?
    /// Named option strings for `preset:NAME` / `pr:NAME`, e.g. `["thumb": "rs:fill:200:200/q:70"]`.
    public var presets: [String: String]
    /// Requests with work under way at once: reading a source, or waiting for, running or
    /// writing out a decode (default: twice the CPU quota, `CPUBudget`). The pipeline itself
    /// decodes, resizes and encodes at most the CPU quota of images at once (its decoding
    /// stage); the other admitted requests read their sources and hand results back meanwhile,
    /// so no core idles between images.
    public var maxConcurrentRequests: Int
    /// The longest expected wait for a slot with which a request is still queued; a request
    /// expected to wait longer is answered 503 at once, with `Retry-After`. nil (the default) for
    /// half of `requestTimeout`, which leaves the other half for the work itself.
    public var maxQueueWait: Duration?
    /// Requests that may wait for a slot whatever their expected wait, a bound on the memory the
    /// queue takes; nil (the default) for 1024 per slot.
    public var maxWaitingRequests: Int?
    /// How long a request may take, from its arrival (its wait for a slot included) to its
    /// answer, before it is answered 504 (default 30 s).
    public var requestTimeout: Duration
    /// How long a connection may sit idle (no request arriving, nothing being answered) before
    /// the server closes it (default 10 s, imgproxy's keep-alive timeout). It also closes a
    /// connection whose request head does not arrive in that time.
    public var keepAliveTimeout: Duration
    /// `Cache-Control: max-age` of images, in seconds (default one year: the URL names the result).
    public var cacheMaxAge: Int
    /// `Cache-Control: max-age` of error responses, in seconds (default 10).
    public var errorCacheMaxAge: Int
    /// Limits on sources: bytes, pixels, frames (`DecodingLimits.untrusted` by default). Its
    /// `allowedInputs` are always within `allowedInputs` here: what is set beyond them is not read.
    public var decodingLimits: DecodingLimits {
        get {
            var limits = configuredLimits
            limits.allowedInputs.formIntersection(allowedInputs)
            return limits
        }
        set { configuredLimits = newValue }
    }
    private var configuredLimits: DecodingLimits
    /// The kinds of source read by large C libraries that the server takes (`InputKinds`): none by
    /// default (`vignette serve --allow-pdf` adds PDF, `--allow-video` video); the others are answered 415 with a line
    /// saying they are not allowed. The one place the server's source kinds are allowed.
    public var allowedInputs: InputKinds = []
    /// The YuNet face model (`FaceDetector.modelFileName`: the 2022mar file for OpenCV 4.6, the 2023mar one for 4.8 and later) that `g:obj:face` crops find
    /// faces with (`FaceDetector`, the `Faces` trait); nil for none, and then those crops are
    /// attention crops. A model that does not load stops the server at start.
    public var faceModelPath: String?
    /// A disk cache of encoded results (and of fetched originals); nil for none.
    public var cacheFolder: String?
    /// Bytes the disk cache may hold (default 1 GiB).
    public var cacheSizeLimit: Int
    /// Bytes of encoded results kept in memory (`EncodedImageCache`); nil for the pipeline's
    /// default (a twentieth of the memory the process may use, at most 256 MiB), 0 for none.
    public var memoryCacheSizeLimit: Int?
    /// Where `s3://BUCKET/KEY` sources (and `gs://` ones, with Google's endpoint) are read, with
    /// which credentials; nil refuses them (403). The S3 endpoint is the one address exempt from
    /// the local-network refusal: it is the operator's, and the URL chooses only bucket and key.
    public var s3: S3Configuration?
    /// A Redis shared by the server's instances (`RedisDataCache`): results one instance made are
    /// served by the others with no fetch, decode or encode; nil for none.
    public var redis: RedisConfiguration?
    /// The image `wm`/`watermark` URLs draw (imgproxy's `IMGPROXY_WATERMARK_PATH`): read and
    /// decoded once when the server is made, under `decodingLimits`; nil for none (the option
    /// then does nothing).
    public var watermarkPath: String?

    // MARK: imgproxy's server settings (`vignette serve` reads them from imgproxy's variables too)

    /// The bytes of the HMAC digest a signature encodes, 1–32 (imgproxy's `IMGPROXY_SIGNATURE_SIZE`;
    /// default 32, all of it).
    public var signatureSize: Int = Defaults.signatureSize
    /// Signature segments accepted unchecked, whatever the key (imgproxy's `IMGPROXY_TRUSTED_SIGNATURES`).
    public var trustedSignatures: [String] = []
    /// Whether image URLs name presets only, `/SIGNATURE/PRESET[:PRESET…]/SOURCE`, instead of
    /// options (imgproxy's `IMGPROXY_ONLY_PRESETS`; off by default).
    public var onlyPresets = false
    /// When set, image, `/info` and `/placeholder` requests must carry `Authorization: Bearer
    /// SECRET` (compared in constant time), else they are answered 403 (imgproxy's
    /// `IMGPROXY_SECRET`); `/health`, `/ready` and `/metrics` need none.
    public var authorizationSecret: String?
    /// The path every route is under (e.g. `/img`: `/img/health`, `/img/<imgproxy URL>`;
    /// imgproxy's `IMGPROXY_PATH_PREFIX`), at every door: from the root in `vignette serve`,
    /// under the prefix an application mounts the server at; "" for none. Other paths are 404.
    /// The signature covers what follows it.
    public var pathPrefix = ""
    /// Another path answering as `/health` does, under `pathPrefix` (imgproxy's
    /// `IMGPROXY_HEALTH_CHECK_PATH`); nil for none.
    public var healthCheckPath: String?
    /// The `Access-Control-Allow-Origin` value sent with image, `/info` and `/placeholder`
    /// answers, with `Access-Control-Allow-Methods: GET, OPTIONS`; `OPTIONS` requests are then
    /// answered 200 with them (imgproxy's `IMGPROXY_ALLOW_ORIGIN`). nil sends no CORS headers.
    public var allowedOrigin: String?
    /// Prefixed to every source that does not start with it already (imgproxy's
    /// `IMGPROXY_BASE_URL`): URLs may then name `images/cat.jpg` for `https://cdn.example.com/images/cat.jpg`.
    public var sourceBaseURL: String?
    /// The formats a URL without a format may be answered in when `Accept` names them: AVIF and
    /// WebP by default, preferred in the order JPEG XL, AVIF, WebP (imgproxy's `IMGPROXY_AUTO_AVIF`,
    /// `IMGPROXY_AUTO_WEBP`, `IMGPROXY_AUTO_JXL`). Empty: the format never follows `Accept`.
    public var autoFormats: Set<ImageFormat> = Defaults.autoFormats
    /// The formats that replace the format a URL names when `Accept` names them, in the same
    /// order (imgproxy's `IMGPROXY_ENFORCE_AVIF`, `_WEBP`, `_JXL`; none by default). Such answers
    /// carry `Vary: Accept`. An animated result is not made AVIF or JPEG XL.
    public var enforcedFormats: Set<ImageFormat> = []
    /// The quality of a URL that gives neither `quality` nor a `format_quality` for its format:
    /// `defaultFormatQuality`'s for the format, else this, else the format's own default
    /// (`ImageRecipe.defaultQuality(for:)`; imgproxy's `IMGPROXY_QUALITY`). nil for the latter.
    public var defaultQuality: Int?
    /// Per-format qualities, for URLs that give no quality (imgproxy's `IMGPROXY_FORMAT_QUALITY`).
    public var defaultFormatQuality: [ImageFormat: Int] = [:]
    /// The autoquality URLs start from (imgproxy's `IMGPROXY_AUTOQUALITY_*`): on for every URL when
    /// its method is not `none`; a URL's `aq` takes the settings it leaves empty from here (its
    /// min or max replaces the per-format ones). imgproxy's defaults: none, qualities 70–80, AVIF
    /// 60–65.
    public var autoQuality = Defaults.autoQuality
    /// The settings of `f:best` (imgproxy's `IMGPROXY_PREFERRED_FORMATS`,
    /// `IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD`, `_MAX_RESOLUTION`), and whether the source's
    /// own bytes may be the answer (`BestFormat.passesSourceThrough`, on).
    public var bestFormat = ImageRecipe.BestFormat()
    /// Whether a URL without a format is answered in the best format (imgproxy's
    /// `IMGPROXY_BEST_FORMAT_BY_DEFAULT`).
    public var bestFormatByDefault = false
    /// Whether a `f:best` URL may skip processing of the formats `skip_processing` lists
    /// (imgproxy's `IMGPROXY_BEST_FORMAT_ALLOW_SKIPS`).
    public var bestFormatAllowsSkips = false
    /// Whether animated sources made into an animated format keep their frames; false makes every
    /// result a still of the first frame (imgproxy's `IMGPROXY_MAX_ANIMATION_FRAMES=1`). On by default.
    public var keepsAnimation = true
    /// The longest side a result may have (extend canvas and padding included): a longer one is
    /// scaled down to it (imgproxy's `IMGPROXY_MAX_RESULT_DIMENSION`); a URL's
    /// `max_result_dimension` may only lower it. nil for no limit.
    public var maxResultDimension: Int?
    /// The image answered when a source cannot be fetched (missing, refused by its server, timed
    /// out, over the byte limit), made with the URL's options (imgproxy's
    /// `IMGPROXY_FALLBACK_IMAGE_PATH`, `_URL` and `_DATA`); nil answers the failure.
    public var fallbackImage: ImageRequest.Source?
    /// The status of a fallback image's answer; nil for the failure's own (imgproxy's
    /// `IMGPROXY_FALLBACK_IMAGE_HTTP_CODE`, where 0 means that). 200 by default.
    public var fallbackImageStatus: Int? = Defaults.fallbackImageStatus
    /// `Cache-Control: max-age` of a fallback image's answer, in seconds; nil for `cacheMaxAge`
    /// (imgproxy's `IMGPROXY_FALLBACK_IMAGE_TTL`).
    public var fallbackImageMaxAge: Int?
    /// How long a source server may take to answer, and to send the next bytes of its body; nil
    /// for the loader's own limits (imgproxy's `IMGPROXY_DOWNLOAD_TIMEOUT`, which bounds the whole
    /// download). The request's `requestTimeout` bounds the whole of it anyway.
    public var downloadTimeout: Duration?
    /// The `User-Agent` sent to source servers; nil for the loader's ("Vignette"; imgproxy's
    /// `IMGPROXY_USER_AGENT`).
    public var userAgent: String?
    /// Whether a failure's answer carries the error in full (a library's message, a path) after
    /// its reason, for development only (imgproxy's `IMGPROXY_DEVELOPMENT_ERRORS_MODE`); off by default.
    public var detailedErrors = false
    /// When set, `/metrics` is served on this port (of `metricsHost`) by `ThumbnailServer.run()`
    /// and not beside the images, at any door (imgproxy's `IMGPROXY_PROMETHEUS_BIND`); port 0
    /// takes any free one. nil: beside the images.
    public var metricsPort: Int?
    /// The address `/metrics` listens on when `metricsPort` is set (default 127.0.0.1).
    public var metricsHost = Defaults.host

    /// The defaults described on each property.
    public init(
        host: String = Defaults.host, port: Int = Defaults.port, localRoot: String? = nil, allowedSourcePrefixes: [String] = [],
        allowsLocalNetworks: Bool = false, signatureKey: String? = nil, signatureSalt: String? = nil,
        presets: [String: String] = [:]
    ) {
        self.host = host
        self.port = port
        self.localRoot = localRoot
        self.allowedSourcePrefixes = allowedSourcePrefixes
        self.allowsLocalNetworks = allowsLocalNetworks
        self.signatureKey = signatureKey
        self.signatureSalt = signatureSalt
        self.presets = presets
        let cores = max(1, CPUBudget.availableCores())
        maxConcurrentRequests = cores * Defaults.requestsPerCore
        maxQueueWait = nil
        maxWaitingRequests = nil
        requestTimeout = .seconds(Defaults.requestTimeoutSeconds)
        keepAliveTimeout = .seconds(Defaults.keepAliveTimeoutSeconds)
        cacheMaxAge = ImageAnswer.defaultMaxAge
        errorCacheMaxAge = ImageAnswer.defaultFailureMaxAge
        configuredLimits = .untrusted
        cacheFolder = nil
        cacheSizeLimit = Defaults.cacheSizeMiB << 20
        redis = nil
        memoryCacheSizeLimit = nil
        s3 = nil
    }

    /// `maxQueueWait`, or its default: half of `requestTimeout`.
    public var queueWaitTarget: Duration { maxQueueWait ?? requestTimeout / 2 }
    /// `maxWaitingRequests`, or its default: 1024 per slot.
    public var waitingLimit: Int { maxWaitingRequests ?? maxConcurrentRequests * Defaults.waitingRequestsPerSlot }
}

extension ServerConfiguration {
    /// The defaults the initialiser gives (each described on its property), named once for the
    /// command line's help and for the server's `run`.
    public enum Defaults {
        /// The address bound: loopback only.
        public static let host = "127.0.0.1"
        /// The port.
        public static let port = 8080
        /// Requests with work under way at once, per core of the CPU quota.
        package static let requestsPerCore = 2
        /// Requests that may wait for a slot whatever their expected wait, per slot.
        package static let waitingRequestsPerSlot = 1024
        /// Seconds a request may take.
        package static let requestTimeoutSeconds = 30
        /// Seconds an idle connection is kept (imgproxy's keep-alive timeout).
        package static let keepAliveTimeoutSeconds = 10
        /// The disk cache's size, in MiB (1 GiB).
        package static let cacheSizeMiB = 1024
        /// Seconds requests in flight may take to finish once the server is asked to stop
        /// (`ThumbnailServer.run(shutdownTimeout:…)`).
        public static let shutdownTimeoutSeconds = 10
        /// Bytes of the digest a URL signature encodes: all 32 of SHA-256's.
        public static let signatureSize = 32
        /// The formats chosen from `Accept` when a URL names none.
        public static let autoFormats: Set<ImageFormat> = [.avif, .webp]
        /// imgproxy's autoquality defaults: off, qualities 70–80, AVIF 60–65.
        public static let autoQuality: ImageRecipe.AutoQuality = {
            var autoQuality = ImageRecipe.AutoQuality(method: .none, minQuality: 70, maxQuality: 80)
            autoQuality.formatMinQuality = [.avif: 60]
            autoQuality.formatMaxQuality = [.avif: 65]
            return autoQuality
        }()
        /// The status of a fallback image's answer (imgproxy's default).
        public static let fallbackImageStatus = 200
    }

    /// The values `vignette serve` accepts for each setting, from its flags and environment.
    package enum Ranges {
        package static let maxConcurrentRequests = 1...1024
        package static let maxWaitingRequests = 0...1_000_000
        /// Seconds, for `maxQueueWait`.
        package static let maxQueueWaitSeconds = 0.0...3600
        /// Seconds, for `requestTimeout` and `keepAliveTimeout`.
        package static let timeoutSeconds = 1...3600
        /// Seconds, for the shutdown's grace period; 0 stops at once.
        package static let shutdownTimeoutSeconds = 0...3600
        /// MiB, for `cacheSizeLimit`.
        package static let cacheSizeMiB = 1...1_048_576
        /// MiB, for `memoryCacheSizeLimit`; 0 for no memory cache.
        package static let memoryCacheSizeMiB = 0...1_048_576
        /// Seconds, for `cacheMaxAge`: up to ten years.
        package static let cacheMaxAge = 0...315_360_000
        /// Milliseconds, for Redis' connect and command timeouts.
        package static let redisTimeoutMilliseconds = 1...60_000
        /// Bytes of the digest a signature encodes.
        package static let signatureSize = 1...32
        /// Qualities, for `defaultQuality` and `defaultFormatQuality`.
        package static let quality = 1...100
        /// HTTP statuses, for `fallbackImageStatus`.
        package static let status = 100...599
        /// Pixels, for `maxResultDimension`.
        package static let resultDimension = 1...100_000
    }
}
