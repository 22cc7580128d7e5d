#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Vignette
import VignetteSupport
import VignetteHTTP

/// Turns a URL's source (`local:///path`, `http://…`, `https://…`, `s3://…`) into what the
/// pipeline loads, or refuses it: local files only under the root, http(s) and s3 only under an
/// allowed prefix, http(s) only from public addresses unless local networks are allowed, s3 only
/// when S3 is configured (`S3Sources`).
///
/// The address check resolves the host (`getaddrinfo`) and refuses the source when any address it
/// has is loopback, private, link-local, multicast, unspecified or reserved. The server's loader
/// follows no redirects, so a public host cannot send it on to a private one. An `http://` source
/// is then fetched from the address that was checked (the URL's host replaced by it, the real host
/// sent as `Host`), so a DNS answer that changes between the check and the connection (DNS
/// rebinding) cannot send the fetch elsewhere. An `https://` source connects by name (TLS needs it
/// for SNI and the certificate): a rebound name would reach a server that has no certificate for it,
/// and the TLS handshake fails.
package struct SourceResolver: Sendable {
    /// What a source resolved to.
    struct Resolved: Sendable {
        /// What the pipeline loads: for an http source pinned to its checked address, that
        /// address's URL with the real `Host` in it (`ImageRequest.Source.url(_:host:)`).
        let source: ImageRequest.Source
        /// The file's modification time, for `Last-Modified` (local files only).
        let modified: Int?
        /// For a pinned source, the source as given: the image id, so keys and ETags do not
        /// depend on the address; nil otherwise.
        var imageID: String?
    }

    let local: LocalSourceResolver?
    let allowedPrefixes: [String]
    let allowsLocalNetworks: Bool
    let s3: S3Configuration?

    init(configuration: ServerConfiguration) {
        local = configuration.localRoot.flatMap(LocalSourceResolver.init(root:))
        s3 = configuration.s3
        allowedPrefixes = configuration.allowedSourcePrefixes
        allowsLocalNetworks = configuration.allowsLocalNetworks
    }

    /// What the pipeline loads for `source`.
    /// - Throws: `ImageFailure` for a source refused (400, 403, 404), `LookupFailure` when the
    ///   host's name cannot be resolved (502).
    func resolve(_ source: String) async throws -> Resolved {
        let lowered = source.lowercased()
        if lowered.hasPrefix("local://") {
            guard let local else { throw ImageFailure.forbidden("local sources are not enabled") }
            let path = String(source.dropFirst("local://".count))
            do throws(LocalSourceResolver.Refusal) {
                let file = try local.resolve(path)
                return Resolved(source: .file(file), modified: HTTPDate.modificationTime(ofFile: file))
            } catch {
                throw error.imageFailure
            }
        }
        if S3Location.hasScheme(source) { return try resolveS3(source) }
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw ImageFailure.badRequest("the source must be local:///, http://, https:// or s3://")
        }
        guard allowedPrefixes.isEmpty || allowedPrefixes.contains(where: { source.hasPrefix($0) }) else {
            throw ImageFailure.forbidden("the source is not under an allowed prefix")
        }
        guard let url = URL(string: source), let host = url.host, !host.isEmpty else {
            throw ImageFailure.badRequest("the source URL is not valid")
        }
        if !allowsLocalNetworks {
            let addresses = try await SourceResolver.addresses(of: host)
            guard let first = addresses.first else { throw ImageFailure(.badGateway, reason: "the source host could not be resolved") }
            guard addresses.allSatisfy({ !$0.kind.isRefusedByDefault }) else {
                throw ImageFailure.forbidden("the source is on a local network")
            }
            if lowered.hasPrefix("http://"), let pinned = SourceResolver.pin(url, to: first.literal) {
                return Resolved(source: .url(pinned.url, host: pinned.host), modified: nil, imageID: source)
            }
        }
        return Resolved(source: .url(url), modified: nil)
    }

    /// `url` with its host replaced by the numeric `address` (brackets added for IPv6), and the
    /// `Host` header value of the original (host, and the port when the URL gave one).
    static func pin(_ url: URL, to address: String) -> (url: URL, host: String)? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.percentEncodedHost, !host.isEmpty
        else { return nil }
        let header = components.port.map { "\(host):\($0)" } ?? host
        components.percentEncodedHost = address.contains(":") ? "[\(address)]" : address
        guard let pinned = components.url else { return nil }
        return (pinned, header)
    }

    /// An address a host resolved to: its kind and its numeric form.
    struct Address: Sendable, Equatable {
        let kind: SourceAddressKind
        let literal: String
    }

    /// A host name `getaddrinfo` could not resolve: its code (`EAI_NONAME`, `EAI_AGAIN`, …) and
    /// `gai_strerror`'s words for it (for `EAI_SYSTEM`, the `errno` and the system's). The client is
    /// answered 502 without them; the log has them.
    struct LookupFailure: ImageFailureConvertible, Sendable, Equatable, CustomStringConvertible {
        /// The host name looked up.
        let host: String
        /// `getaddrinfo`'s result (an `EAI_*` code, negative in glibc).
        let code: Int32
        /// `gai_strerror(code)`, and for `EAI_SYSTEM` the system's reason too.
        let message: String

        var imageFailure: ImageFailure { ImageFailure(.badGateway, reason: "the source host could not be resolved") }
        var description: String { "cannot resolve \(host): \(message) (getaddrinfo \(code))" }
    }

    /// Every address `host` resolves to (a numeric host is its own address). `getaddrinfo`
    /// blocks: it runs on the blocking executor, not on Swift's cooperative pool.
    static func addresses(of host: String) async throws(LookupFailure) -> [Address] {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let kind = SourceAddressKind(numericAddress: bare) { return [Address(kind: kind, literal: bare)] }
        return try await BlockingExecutor.shared.run { Result { () throws(LookupFailure) in try lookUp(bare) } }.get()
    }

    private static func lookUp(_ host: String) throws(LookupFailure) -> [Address] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &results)
        guard status == 0 else {
            let code = errno
            var message = String(cString: gai_strerror(status))
            if status == EAI_SYSTEM { message += ": " + SystemError.reason(for: code) }
            throw LookupFailure(host: host, code: status, message: message)
        }
        guard let first = results else { return [] }
        defer { freeaddrinfo(first) }
        var addresses: [Address] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let address = info.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        var raw = $0.pointee.sin_addr
                        addresses.append(Address(kind: SourceAddressKind(ipv4: UInt32(bigEndian: raw.s_addr)),
                                                 literal: numeric(AF_INET, &raw, length: INET_ADDRSTRLEN)))
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        var raw = $0.pointee.sin6_addr
                        addresses.append(Address(kind: SourceAddressKind(ipv6: withUnsafeBytes(of: raw) { Array($0) }),
                                                 literal: numeric(AF_INET6, &raw, length: INET6_ADDRSTRLEN)))
                    }
                default:
                    addresses.append(Address(kind: .reserved, literal: ""))
                }
            }
            cursor = info.pointee.ai_next
        }
        return addresses
    }

    /// The text form of a binary address (`inet_ntop`).
    private static func numeric(_ family: Int32, _ address: UnsafeRawPointer, length: Int32) -> String {
        var text = [CChar](repeating: 0, count: Int(length) + 1)
        guard inet_ntop(family, address, &text, socklen_t(text.count)) != nil else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
