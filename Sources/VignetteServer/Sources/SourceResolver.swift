#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Vignette

/// Turns a URL's source (`local:///path`, `http://…`, `https://…`) into what the pipeline loads,
/// or refuses it: local files only under the root, http(s) only under an allowed prefix and only
/// from public addresses unless local networks are allowed.
///
/// The address check resolves the host (`getaddrinfo`) and refuses the source when any address it
/// has is loopback, private, link-local, multicast, unspecified or reserved. The server's loader
/// follows no redirects, so a public host cannot send it on to a private one.
struct SourceResolver: Sendable {
    /// What a source resolved to.
    struct Resolved: Sendable {
        let source: ImageRequest.Source
        /// The file's modification time, for `Last-Modified` (local files only).
        let modified: Int?
    }

    let local: LocalSourceResolver?
    let allowedPrefixes: [String]
    let allowsLocalNetworks: Bool

    init(configuration: ServerConfiguration) {
        local = configuration.localRoot.flatMap(LocalSourceResolver.init(root:))
        allowedPrefixes = configuration.allowedSourcePrefixes
        allowsLocalNetworks = configuration.allowsLocalNetworks
    }

    func resolve(_ source: String) async throws(ServerFailure) -> Resolved {
        let lowered = source.lowercased()
        if lowered.hasPrefix("local://") {
            guard let local else { throw .forbidden("local sources are not enabled") }
            let path = String(source.dropFirst("local://".count))
            do throws(LocalSourceResolver.Refusal) {
                let file = try local.resolve(path)
                return Resolved(source: .file(file), modified: SourceResolver.modificationTime(file))
            } catch {
                switch error {
                case .forbidden: throw .forbidden("the source is outside the allowed folder")
                case .notFound: throw .notFound
                }
            }
        }
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw .badRequest("the source must be local:///, http:// or https://")
        }
        guard allowedPrefixes.isEmpty || allowedPrefixes.contains(where: { source.hasPrefix($0) }) else {
            throw .forbidden("the source is not under an allowed prefix")
        }
        guard let url = URL(string: source), let host = url.host, !host.isEmpty else {
            throw .badRequest("the source URL is not valid")
        }
        if !allowsLocalNetworks {
            let kinds = try await SourceResolver.addressKinds(of: host)
            guard !kinds.isEmpty else { throw ServerFailure(status: 502, "the source host could not be resolved") }
            guard kinds.allSatisfy({ !$0.isRefusedByDefault }) else {
                throw .forbidden("the source is on a local network")
            }
        }
        return Resolved(source: .url(url), modified: nil)
    }

    /// The kinds of every address `host` resolves to (a numeric host is its own address).
    /// `getaddrinfo` blocks: it runs on a Dispatch thread, not on Swift's cooperative pool.
    static func addressKinds(of host: String) async throws(ServerFailure) -> [SourceAddressKind] {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let kind = SourceAddressKind(numericAddress: bare) { return [kind] }
        return await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: lookUp(bare))
            }
        }
    }

    private static func lookUp(_ host: String) -> [SourceAddressKind] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &results) == 0, let first = results else { return [] }
        defer { freeaddrinfo(first) }
        var kinds: [SourceAddressKind] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let address = info.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        kinds.append(SourceAddressKind(ipv4: UInt32(bigEndian: $0.pointee.sin_addr.s_addr)))
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        kinds.append(SourceAddressKind(ipv6: withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }))
                    }
                default:
                    kinds.append(.reserved)
                }
            }
            cursor = info.pointee.ai_next
        }
        return kinds
    }

    static func modificationTime(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_mtim.tv_sec)
    }
}
