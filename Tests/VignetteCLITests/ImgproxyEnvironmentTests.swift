import AsyncHTTPClient
import ChildProcess
import Foundation
import Glibc
import LoopbackHTTPServer
import Testing
import VignetteCodecs

/// `vignette serve` started with nothing but an imgproxy deployment's environment (no flags, no
/// `VIGNETTE_*`): each imgproxy variable it supports has its effect, checked through answers to
/// URLs signed by an independent signer (Python's hmac), and the ones it does not support are
/// named in warnings.
@Suite("vignette serve with imgproxy's environment")
struct ImgproxyEnvironmentTests {
    static let keys = ("943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881", "0123456789abcdef")
    static let salts = ("520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5", "fedcba98")
    static let secret = "s3cret"

    /// What an answer was.
    struct Fetched {
        let status: Int
        let headers: [(name: String, value: String)]
        let body: Data

        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
        var info: ImageInfo? { try? ImageDecoder().probe(body) }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func fetch(
        _ client: HTTPClient, _ url: String, headers: [(String, String)] = [], preflight: Bool = false
    ) async throws -> Fetched {
        var request = HTTPClientRequest(url: url)
        if preflight { request.method = .OPTIONS }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 24)
        return Fetched(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: Data(body.readableBytesView))
    }

    /// imgproxy's signatures of `paths` with `key` and `salt` (hex), `size` bytes of the digest,
    /// computed by Python's hmac and hashlib: no code of Vignette's.
    static func sign(_ paths: [String], key: String, salt: String, size: Int) async throws -> [String] {
        let script = """
            import base64, hashlib, hmac, sys
            key, salt, size = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2]), int(sys.argv[3])
            for path in sys.argv[4:]:
                digest = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()[:size]
                print(base64.urlsafe_b64encode(digest).rstrip(b"=").decode())
            """
        let result = await CLI.finish(try CLI.start("/usr/bin/env", ["python3", "-c", script, key, salt, String(size)] + paths, environment: [:]))
        #expect(result.status == 0, "\(result.stderr)")
        let signatures = result.stdoutLines
        try #require(signatures.count == paths.count)
        return signatures
    }

    /// The port of the first standard-error line of `process` starting with `prefix`.
    static func port(of process: ChildProcess, line prefix: String) async throws -> Int {
        let line = try #require(await process.line(inStandardErrorStartingWith: prefix), "\(process.standardError)")
        let text = line.dropFirst(prefix.count).prefix { $0.isNumber }
        return try #require(Int(text))
    }

    /// The value of the metric `name` (without labels) in Prometheus text.
    static func gauge(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    /// The JSON log lines of `stderr` (`IMGPROXY_LOG_FORMAT=json`).
    static func jsonLines(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("{") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    @Test("an imgproxy deployment's environment alone: signatures, secret, prefix, CORS, TTL, qualities, formats, limits, sources, fallback, admission, logs, metrics")
    func deployment() async throws {
        let origin = try await LoopbackHTTPServer.start()
        let photo = Array(try Data(contentsOf: CLI.fixtures.appendingPathComponent("baseline.jpg")))
        let gate = Gate()
        origin.setRoute("/ok/photo.jpg", Route(body: photo, contentType: "image/jpeg"))
        origin.setRoute("/other/photo.jpg", Route(body: photo, contentType: "image/jpeg"))
        for name in ["held-1", "held-2"] {
            origin.setRoute("/ok/\(name).jpg", Route(
                body: photo, contentType: "image/jpeg", delivery: .dribbleHeld(chunkSize: 1024, interval: .milliseconds(1), holdAt: 1024, gate: gate)))
        }
        origin.setRoute("/ok/stall.jpg", Route(body: photo, contentType: "image/jpeg", delivery: .stall))
        let environment = [
            "IMGPROXY_BIND": "127.0.0.1:0", "IMGPROXY_LOCAL_FILESYSTEM_ROOT": CLI.fixtures.path,
            "IMGPROXY_KEY": "\(Self.keys.0),\(Self.keys.1)", "IMGPROXY_SALT": "\(Self.salts.0),\(Self.salts.1)", "IMGPROXY_SIGNATURE_SIZE": "8",
            "IMGPROXY_TRUSTED_SIGNATURES": "trusted-one", "IMGPROXY_SECRET": Self.secret,
            "IMGPROXY_PATH_PREFIX": "/img", "IMGPROXY_HEALTH_CHECK_PATH": "/healthz", "IMGPROXY_TTL": "3600",
            "IMGPROXY_ALLOW_ORIGIN": "https://example.com", "IMGPROXY_PRESETS": "small=rs:fit:50:50",
            "IMGPROXY_QUALITY": "30", "IMGPROXY_FORMAT_QUALITY": "webp=90", "IMGPROXY_AUTO_WEBP": "true", "IMGPROXY_ENFORCE_AVIF": "true",
            "IMGPROXY_MAX_ANIMATION_FRAMES": "1", "IMGPROXY_MAX_RESULT_DIMENSION": "100",
            "IMGPROXY_ALLOWED_SOURCES": "local://,s3://,\(origin.url("/ok/"))",
            "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true", "IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES": "true",
            "IMGPROXY_USE_S3": "true", "IMGPROXY_S3_ENDPOINT": "http://127.0.0.1:1", "IMGPROXY_S3_REGION": "eu-west-1",
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            "IMGPROXY_FALLBACK_IMAGE_PATH": CLI.fixtures.appendingPathComponent("alpha.png").path,
            "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "404", "IMGPROXY_FALLBACK_IMAGE_TTL": "77",
            "IMGPROXY_WORKERS": "1", "IMGPROXY_REQUESTS_QUEUE_SIZE": "1", "IMGPROXY_TIMEOUT": "20", "IMGPROXY_DOWNLOAD_TIMEOUT": "3",
            "IMGPROXY_GRACEFUL_STOP_TIMEOUT": "0", "IMGPROXY_USER_AGENT": "imgproxy-test/%current_version",
            "IMGPROXY_STRIP_METADATA": "false", "IMGPROXY_STRIP_COLOR_PROFILE": "false", "IMGPROXY_AUTO_ROTATE": "false",
            "IMGPROXY_DEVELOPMENT_ERRORS_MODE": "true", "IMGPROXY_LOG_FORMAT": "json", "IMGPROXY_LOG_LEVEL": "debug",
            "IMGPROXY_PROMETHEUS_BIND": "127.0.0.1:0",
            // Set, and not supported: each is named in a warning.
            "IMGPROXY_MAX_CLIENTS": "100", "IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "true", "IMGPROXY_READ_REQUEST_TIMEOUT": "5",
            "IMGPROXY_KEYS": "abcd",
        ]
        let process = try CLI.start(["serve"], environment: environment)
        defer { process.send(SIGKILL) }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let server = "http://127.0.0.1:\(try await Self.port(of: process, line: "vignette: listening on http://127.0.0.1:"))"
            let metrics = "http://127.0.0.1:\(try await Self.port(of: process, line: "vignette: metrics on http://127.0.0.1:"))/metrics"
            let authorized = [("Authorization", "Bearer \(Self.secret)")]

            // The paths each signed with one of the two pairs, 8 bytes of the digest.
            let first = [
                "/rs:fit:300:300/plain/local:///baseline.jpg@png", "/plain/local:///baseline.jpg@jpg", "/q:30/plain/local:///baseline.jpg@jpg",
                "/q:90/plain/local:///baseline.jpg@jpg", "/plain/local:///baseline.jpg@webp", "/q:90/plain/local:///baseline.jpg@webp",
                "/rs:fit:64:64/plain/local:///baseline.jpg", "/rs:fit:64:64/plain/local:///baseline.jpg@png",
                "/plain/local:///orientation-6.jpg@jpg", "/plain/local:///adobergb.jpg@jpg", "/scp:1/plain/local:///adobergb.jpg@jpg",
                "/plain/local:///animated.gif@gif", "/plain/\(origin.url("/ok/photo.jpg"))@png", "/plain/\(origin.url("/other/photo.jpg"))@png",
                "/rs:fit:100:100/plain/local:///absent.jpg@png", "/rs:fit:100:100/plain/s3://bucket/photo.jpg@png",
                "/plain/local:///not-an-image.txt@png", "/plain/\(origin.url("/ok/held-1.jpg"))@png",
                "/plain/\(origin.url("/ok/held-2.jpg"))@png", "/w:33/plain/local:///rgb8.png@png", "/plain/\(origin.url("/ok/stall.jpg"))@png",
                "/plain/\(origin.url("/ok/stall.jpg"))@jpg",
            ]
            let signed = Dictionary(uniqueKeysWithValues: zip(
                first, try await Self.sign(first, key: Self.keys.0, salt: Self.salts.0, size: 8)))
            let second = "/pr:small/plain/local:///baseline.jpg@png"
            let secondSignature = try await Self.sign([second], key: Self.keys.1, salt: Self.salts.1, size: 8)[0]
            let fullSignature = try await Self.sign([first[0]], key: Self.keys.0, salt: Self.salts.0, size: 32)[0]
            func url(_ path: String) throws -> String { server + "/img/" + (try #require(signed[path])) + path }
            func get(_ path: String, _ headers: [(String, String)] = []) async throws -> Fetched {
                try await Self.fetch(client, try url(path), headers: authorized + headers)
            }

            // IMGPROXY_PATH_PREFIX, IMGPROXY_HEALTH_CHECK_PATH: health under the prefix, no secret needed.
            #expect(try await Self.fetch(client, server + "/img/health").status == 200)
            #expect(try await Self.fetch(client, server + "/img/healthz").status == 200)
            #expect(try await Self.fetch(client, server + "/health").status == 404)

            // IMGPROXY_KEY, _SALT (two pairs), _SIGNATURE_SIZE, _TTL, _ALLOW_ORIGIN, _MAX_RESULT_DIMENSION.
            let fitted = try await get(first[0])
            #expect(fitted.status == 200 && fitted.info?.format == .png && fitted.info?.width == 100 && fitted.info?.height == 75)
            #expect(fitted.header("Cache-Control") == "public, max-age=3600")
            #expect(fitted.header("Access-Control-Allow-Origin") == "https://example.com")
            let bySecondPair = try await Self.fetch(client, server + "/img/" + secondSignature + second, headers: authorized)
            #expect(bySecondPair.status == 200 && bySecondPair.info?.width == 50 && bySecondPair.info?.height == 38)  // IMGPROXY_PRESETS
            #expect(try await Self.fetch(client, server + "/img/" + fullSignature + first[0], headers: authorized).status == 403)
            #expect(try await Self.fetch(client, server + "/img/" + secondSignature + first[0], headers: authorized).status == 403)
            // IMGPROXY_TRUSTED_SIGNATURES.
            let trusted = try await Self.fetch(client, server + "/img/trusted-one/w:40/plain/local:///baseline.jpg@png", headers: authorized)
            #expect(trusted.status == 200 && trusted.info?.width == 40)
            // IMGPROXY_SECRET: Authorization: Bearer, or 403 (with the CORS headers still).
            let noSecret = try await Self.fetch(client, try url(first[0]))
            #expect(noSecret.status == 403 && noSecret.header("Access-Control-Allow-Origin") == "https://example.com")
            #expect(try await Self.fetch(client, try url(first[0]), headers: [("Authorization", "Bearer wrong")]).status == 403)
            // CORS preflight.
            let preflight = try await Self.fetch(client, server + "/img/anything", preflight: true)
            #expect(preflight.status == 200 && preflight.header("Access-Control-Allow-Methods") == "GET, OPTIONS")

            // IMGPROXY_QUALITY, _FORMAT_QUALITY: a URL without a quality is made as with q:30 (JPEG), q:90 (WebP).
            let (plainJPEG, jpeg30, jpeg90) = (try await get(first[1]), try await get(first[2]), try await get(first[3]))
            #expect(plainJPEG.status == 200 && plainJPEG.body == jpeg30.body && plainJPEG.body != jpeg90.body)
            let (plainWebP, webp90) = (try await get(first[4]), try await get(first[5]))
            #expect(plainWebP.info?.format == .webp && plainWebP.body == webp90.body)
            // IMGPROXY_STRIP_METADATA=false keeps EXIF.
            #expect(plainJPEG.body.range(of: Data("Exif".utf8)) != nil)

            // IMGPROXY_AUTO_WEBP, _ENFORCE_AVIF (AVIF stays automatic too, Vignette's default).
            let byAccept = { (path: String, accept: String?) async throws -> Fetched in try await get(path, accept.map { [("Accept", $0)] } ?? []) }
            #expect(try await byAccept(first[6], "image/avif,image/webp").info?.format == .avif)
            let webp = try await byAccept(first[6], "image/webp")
            #expect(webp.info?.format == .webp && webp.header("Vary") == "Accept")
            #expect(try await byAccept(first[6], nil).info?.format == .jpeg)
            let enforced = try await byAccept(first[7], "image/avif")
            #expect(enforced.info?.format == .avif && enforced.header("Vary") == "Accept")
            #expect(try await byAccept(first[7], "image/webp").info?.format == .png)

            // IMGPROXY_AUTO_ROTATE=false: stored 480×640 stays portrait. _STRIP_COLOR_PROFILE=false keeps the ICC profile.
            let unrotated = try await get(first[8])
            #expect(unrotated.info?.width == 75 && unrotated.info?.height == 100)
            #expect(try await get(first[9]).body.range(of: Data("ICC_PROFILE".utf8)) != nil)
            #expect(try await get(first[10]).body.range(of: Data("ICC_PROFILE".utf8)) == nil)
            // IMGPROXY_MAX_ANIMATION_FRAMES=1: a still of the first frame.
            let still = try await get(first[11])
            #expect(still.info?.format == .gif && still.info?.pages == 1)

            // IMGPROXY_ALLOWED_SOURCES, _ALLOW_LOOPBACK/_LINK_LOCAL_SOURCE_ADDRESSES, _USER_AGENT.
            let fetched = try await get(first[12])
            #expect(fetched.status == 200 && fetched.info?.format == .png)
            #expect(origin.requests(for: "/ok/photo.jpg").first?.header("User-Agent") == "imgproxy-test/vignette")
            #expect(try await get(first[13]).status == 403)
            #expect(origin.requests(for: "/other/photo.jpg").isEmpty)

            // IMGPROXY_FALLBACK_IMAGE_PATH, _HTTP_CODE, _TTL: a missing file, and an S3 object (S3 on:
            // IMGPROXY_USE_S3, _S3_ENDPOINT, where nothing listens) that cannot be fetched.
            for path in [first[14], first[15]] {
                let fallback = try await get(path)
                #expect(fallback.status == 404 && fallback.info?.format == .png && fallback.info?.width == 100 && fallback.info?.height == 75, "\(path)")
                #expect(fallback.header("Cache-Control") == "public, max-age=77")
            }

            // IMGPROXY_DEVELOPMENT_ERRORS_MODE: the error in full after the reason.
            let broken = try await get(first[16])
            #expect(broken.status == 415 && broken.text.split(separator: ":").count > 1, "\(broken.text)")

            // IMGPROXY_PROMETHEUS_BIND: /metrics there, not beside the images.
            let metricsText = try await Self.fetch(client, metrics).text
            #expect(metricsText.contains("vignette_http_requests_total"))
            #expect(!(try await Self.fetch(client, server + "/img/metrics", headers: authorized).text.contains("vignette_http_requests_total")))

            // IMGPROXY_WORKERS=1, _REQUESTS_QUEUE_SIZE=1: one at work, one waiting, the next 503 at once.
            let held1 = Task { try await get(first[17]) }
            for _ in 0..<3000 where origin.requests(for: "/ok/held-1.jpg").isEmpty { try await Task.sleep(for: .milliseconds(2)) }
            let held2 = Task { try await get(first[18]) }
            var queued = false
            for _ in 0..<1500 where !queued {
                queued = Self.gauge("vignette_admission_queue_length", in: try await Self.fetch(client, metrics).text) == 1
                if !queued { try await Task.sleep(for: .milliseconds(4)) }
            }
            #expect(queued)
            let refused = try await get(first[19])
            #expect(refused.status == 503 && refused.header("Retry-After") != nil)
            gate.open()
            #expect(try await held1.value.status == 200)
            #expect(try await held2.value.status == 200)

            // IMGPROXY_DOWNLOAD_TIMEOUT=3: a source that never answers gives up after 3 s (then the fallback image).
            let started = ContinuousClock.now
            let stalled = try await get(first[20])
            let waited = ContinuousClock.now - started
            #expect(stalled.status == 404 && stalled.info?.format == .png)
            #expect(waited >= .milliseconds(2500) && waited < .seconds(15), "\(waited)")

            // IMGPROXY_GRACEFUL_STOP_TIMEOUT=0: SIGTERM with a request in flight stops at once.
            let inFlight = Task { try? await get(first[21]) }
            for _ in 0..<3000 where origin.requests(for: "/ok/stall.jpg").count < 2 { try await Task.sleep(for: .milliseconds(2)) }
            let stopping = ContinuousClock.now
            process.send(SIGTERM)
            let ended = await CLI.finish(process, killAfter: .seconds(30))
            #expect(!ended.killed && ContinuousClock.now - stopping < .seconds(2), "\(ContinuousClock.now - stopping)")
            _ = await inFlight.value

            // The start's log lines, JSON (IMGPROXY_LOG_FORMAT), debug ones included (IMGPROXY_LOG_LEVEL).
            let lines = Self.jsonLines(ended.result.stderr)
            let messages = lines.compactMap { $0["msg"] as? String }
            let read = try #require(messages.first { $0.hasPrefix("imgproxy variables read:") }, "\(ended.result.stderr)")
            for name in ["IMGPROXY_BIND", "IMGPROXY_KEY", "IMGPROXY_SECRET", "IMGPROXY_TTL", "IMGPROXY_PROMETHEUS_BIND", "IMGPROXY_USE_S3"] {
                #expect(read.contains(name + ",") || read.hasSuffix(name), "\(name) in \(read)")
            }
            let warnings = lines.filter { $0["level"] as? String == "warn" }.compactMap { $0["msg"] as? String }
            for name in ["IMGPROXY_MAX_CLIENTS", "IMGPROXY_CACHE_CONTROL_PASSTHROUGH", "IMGPROXY_READ_REQUEST_TIMEOUT", "IMGPROXY_KEYS"] {
                #expect(warnings.contains { $0.hasPrefix(name) }, "\(name) in \(warnings)")
                #expect(!read.contains(name + ","), "\(name) is not read")
            }
            #expect(lines.contains { $0["level"] as? String == "debug" && $0["msg"] as? String == "request shed" })
        } catch {
            try? await client.shutdown()
            await origin.stop()
            throw error
        }
        try await client.shutdown()
        await origin.stop()
    }

    @Test("only presets, automatic formats off, a base URL, source limits, skip processing and the keep-alive timeout")
    func presetsOnlyDeployment() async throws {
        let environment = [
            "IMGPROXY_BIND": "127.0.0.1:0", "IMGPROXY_LOCAL_FILESYSTEM_ROOT": CLI.fixtures.path, "IMGPROXY_ONLY_PRESETS": "1",
            "IMGPROXY_PRESETS": "thumb=rs:fit:40:40;tiny=w:10", "IMGPROXY_PRESETS_SEPARATOR": ";",
            "IMGPROXY_AUTO_WEBP": "false", "IMGPROXY_AUTO_AVIF": "false", "IMGPROXY_BASE_URL": "local:///",
            "IMGPROXY_MAX_SRC_RESOLUTION": "0.2", "IMGPROXY_MAX_SRC_FILE_SIZE": "100000", "IMGPROXY_SKIP_PROCESSING_FORMATS": "png",
            "IMGPROXY_KEEP_ALIVE_TIMEOUT": "2",
        ]
        let (result, killed) = try await CLI.serving([], environment: environment) { client, server in
            let avifOrWebP = [("Accept", "image/avif,image/webp")]
            let thumb = try await Self.fetch(client, server + "/insecure/thumb/plain/palette.png@jpg", headers: avifOrWebP)
            #expect(thumb.status == 200 && thumb.info?.format == .jpeg && thumb.info?.width == 40 && thumb.info?.height == 30)
            let negotiated = try await Self.fetch(client, server + "/insecure/thumb/plain/palette.png", headers: avifOrWebP)
            #expect(negotiated.info?.format == .jpeg && negotiated.header("Vary") == nil)
            #expect(try await Self.fetch(client, server + "/insecure/thumb:tiny/plain/palette.png@jpg").info?.width == 10)
            #expect(try await Self.fetch(client, server + "/insecure/rs:fit:40:40/plain/palette.png@jpg").status == 400)
            // IMGPROXY_SKIP_PROCESSING_FORMATS=png: a PNG asked for as PNG is the source's bytes.
            let skipped = try await Self.fetch(client, server + "/insecure/thumb/plain/palette.png@png")
            #expect(skipped.body == (try Data(contentsOf: CLI.fixtures.appendingPathComponent("palette.png"))))
            // IMGPROXY_MAX_SRC_RESOLUTION (0.2 megapixels), _MAX_SRC_FILE_SIZE (rgb8.png has 160,931 bytes).
            #expect(try await Self.fetch(client, server + "/insecure/thumb/plain/baseline.jpg@jpg").status == 413)
            #expect(try await Self.fetch(client, server + "/insecure/thumb/plain/rgb8.png@jpg").status == 413)
            // Without IMGPROXY_DEVELOPMENT_ERRORS_MODE the reason alone.
            let broken = try await Self.fetch(client, server + "/insecure/thumb/plain/not-an-image.txt@png")
            #expect(broken.status == 415 && !broken.text.dropLast().contains("\n"))
            // IMGPROXY_KEEP_ALIVE_TIMEOUT=2: an idle connection is closed after 2 s.
            let port = try #require(Int(server.split(separator: ":").last ?? ""))
            let closedAfter = try #require(Self.idleConnectionLifetime(port: port))
            #expect(closedAfter >= .milliseconds(1500) && closedAfter < .seconds(8), "\(closedAfter)")
        }
        #expect(!killed && result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    /// How long the server at 127.0.0.1:`port` keeps a connection on which nothing is sent; nil
    /// when it cannot connect or the connection outlives 10 s.
    static func idleConnectionLifetime(port: Int) -> Duration? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let started = ContinuousClock.now
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) == 0 ? ContinuousClock.now - started : nil
    }

    @Test("a bad imgproxy value stops vignette serve at start, naming the variable")
    func badValues() async throws {
        for (name, value) in [
            ("IMGPROXY_QUALITY", "high"), ("IMGPROXY_ALLOWED_SOURCES", "https://*.example.com/"), ("IMGPROXY_SIGNATURE_SIZE", "40"),
            ("IMGPROXY_AUTO_WEBP", "perhaps"), ("IMGPROXY_BIND", "nowhere"), ("IMGPROXY_FORMAT_QUALITY", "webp:80"),
        ] {
            var environment = ["IMGPROXY_BIND": "127.0.0.1:0"]
            environment[name] = value
            let (result, killed) = await CLI.finish(try CLI.start(["serve"], environment: environment), killAfter: .seconds(60))
            #expect(!killed && result.status == 2 && result.stderr.contains(name), "\(name)=\(value): \(result.status) \(result.stderr)")
        }
        let pairs = ["IMGPROXY_BIND": "127.0.0.1:0", "IMGPROXY_KEY": "aa,bb", "IMGPROXY_SALT": "cc"]
        let (unpaired, killed) = await CLI.finish(try CLI.start(["serve"], environment: pairs), killAfter: .seconds(60))
        #expect(!killed && unpaired.status == 2 && unpaired.stderr.contains("IMGPROXY_KEY"), "\(unpaired.stderr)")
    }
}
