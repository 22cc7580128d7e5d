import ArgumentParser
import Dispatch
import Glibc
import Logging
import Vignette
import VignetteServer

/// `vignette serve`: the imgproxy-compatible thumbnail server (`VignetteServer`).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve thumbnails over HTTP at imgproxy-compatible URLs.",
        discussion: """
            URLs: /SIGNATURE/OPTIONS/BASE64URL_SOURCE.EXT or /SIGNATURE/OPTIONS/plain/PERCENT_ENCODED_SOURCE@EXT, \
            as imgproxy documents them; sources are local:///PATH under --root and http(s) URLs (public addresses only \
            unless --allow-local-networks). GET /health, /ready, /metrics (Prometheus text). Prints \
            "listening on http://HOST:PORT" on standard error once it accepts connections. SIGTERM or SIGINT stops \
            accepting, lets requests in flight finish (up to --shutdown-timeout), writes the disk cache and exits 0. \
            The signing key and salt may also come from VIGNETTE_KEY and VIGNETTE_SALT.
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0: any free port, printed once listening).")
    var port = 8080

    @Option(help: ArgumentHelp("Serve local:///PATH sources from this folder.", valueName: "DIR"))
    var root: String?

    @Option(name: .customLong("allow-source"), help: ArgumentHelp("Allow only http(s) sources starting with PREFIX (repeatable).", valueName: "PREFIX"))
    var allowedSources: [String] = []

    @Flag(help: "Allow sources on loopback, private and link-local addresses (refused by default).")
    var allowLocalNetworks = false

    @Option(help: ArgumentHelp("URL signing key, hex (else VIGNETTE_KEY; none: signatures are not checked).", valueName: "HEX"))
    var key: String?

    @Option(help: ArgumentHelp("URL signing salt, hex (else VIGNETTE_SALT).", valueName: "HEX"))
    var salt: String?

    @Option(name: .customLong("preset"), help: ArgumentHelp("A named preset, NAME=OPTIONS (repeatable), e.g. thumb=rs:fill:200:200/q:70.", valueName: "NAME=OPTIONS"))
    var presets: [String] = []

    @Option(help: "Images processed at once (default: the CPU quota).")
    var concurrency: Int?

    @Option(help: "Requests that may wait for a slot before the server answers 503 (default: 4 per slot).")
    var queue: Int?

    @Option(help: ArgumentHelp("Seconds a request may take before it is answered 504.", valueName: "SECONDS"))
    var timeout: Int = 30

    @Option(help: ArgumentHelp("Keep encoded results in a disk cache in DIR.", valueName: "DIR"))
    var cache: String?

    @Option(help: ArgumentHelp("Disk cache size in MiB.", valueName: "MIB"))
    var cacheSize: Int = 1024

    @Option(help: ArgumentHelp("Cache-Control max-age of images, in seconds.", valueName: "SECONDS"))
    var maxAge: Int = 31_536_000

    @Option(help: ArgumentHelp("Seconds to let requests in flight finish after SIGTERM.", valueName: "SECONDS"))
    var shutdownTimeout: Int = 10

    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be 0–65535, got \(port)") }
        if let concurrency, !(1...1024).contains(concurrency) { throw ValidationError("--concurrency must be 1–1024, got \(concurrency)") }
        if let queue, !(0...100_000).contains(queue) { throw ValidationError("--queue must be 0–100000, got \(queue)") }
        if !(1...3600).contains(timeout) { throw ValidationError("--timeout must be 1–3600, got \(timeout)") }
        if !(1...1_048_576).contains(cacheSize) { throw ValidationError("--cache-size must be 1–1048576 MiB, got \(cacheSize)") }
        if maxAge < 0 { throw ValidationError("--max-age must not be negative") }
        if !(0...3600).contains(shutdownTimeout) { throw ValidationError("--shutdown-timeout must be 0–3600, got \(shutdownTimeout)") }
        for preset in presets where !preset.contains("=") { throw ValidationError("--preset takes NAME=OPTIONS, got \(preset)") }
    }

    func run() throws {
        var configuration = ServerConfiguration(
            host: host, port: port, localRoot: root, allowedSourcePrefixes: allowedSources,
            allowsLocalNetworks: allowLocalNetworks,
            signatureKey: key ?? ServeCommand.environment("VIGNETTE_KEY"),
            signatureSalt: salt ?? ServeCommand.environment("VIGNETTE_SALT"))
        for preset in presets {
            let parts = preset.split(separator: "=", maxSplits: 1)
            configuration.presets[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        if let concurrency { configuration.maxConcurrentRequests = concurrency }
        configuration.maxWaitingRequests = queue ?? configuration.maxConcurrentRequests * 4
        configuration.requestTimeout = .seconds(timeout)
        configuration.cacheFolder = cache
        configuration.cacheSizeLimit = cacheSize << 20
        configuration.cacheMaxAge = maxAge
        let server = try ThumbnailServer(configuration: configuration)
        let shutdown = Duration.seconds(shutdownTimeout)
        let host = host
        let outcome = AsyncBridge.wait { () async throws(ServeFailure) -> Void in
            do {
                try await server.run(shutdownTimeout: shutdown) { port in
                    Console.error("listening on http://\(host):\(port)")
                }
            } catch {
                throw ServeFailure(message: "\(error)")
            }
        }
        if case .failure(let failure) = outcome { throw CommandFailure(failure.message) }
    }

    struct ServeFailure: Error {
        let message: String
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
