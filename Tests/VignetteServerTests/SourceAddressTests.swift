import Testing
import Foundation
import Vignette
import VignetteHTTP
import VignetteHummingbird
@testable import VignetteImgproxy
@testable import VignetteServer

@Suite("SSRF: the kind of network a source address is on")
struct SourceAddressTests {
    @Test("IPv4 and IPv6 ranges", arguments: [
        ("127.0.0.1", SourceAddressKind.loopback), ("127.255.0.9", .loopback), ("::1", .loopback),
        ("10.1.2.3", .private), ("172.16.0.1", .private), ("172.31.255.255", .private), ("172.32.0.1", .global),
        ("192.168.1.1", .private), ("100.64.0.1", .private), ("100.128.0.1", .global), ("fd12:3456::1", .private),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal),
        ("224.0.0.1", .multicast), ("ff02::1", .multicast), ("255.255.255.255", .multicast),
        ("0.0.0.0", .unspecified), ("::", .unspecified), ("240.0.0.1", .reserved), ("2001:db8::1", .reserved),
        ("::ffff:127.0.0.1", .loopback), ("::ffff:10.0.0.1", .private), ("::ffff:8.8.8.8", .global),
        ("8.8.8.8", .global), ("1.1.1.1", .global), ("2606:4700::1111", .global),
    ])
    func kinds(address: String, kind: SourceAddressKind) {
        #expect(SourceAddressKind(numericAddress: address) == kind)
        #expect(SourceAddressKind(numericAddress: address)?.isRefusedByDefault == (kind != .global))
    }

    /// Every block of the IANA IPv4 special-purpose registry: an address inside it, and where the
    /// edge is worth checking, the first global addresses beside it.
    static let ipv4Blocks: [(String, SourceAddressKind)] = [
        ("0.1.2.3", .unspecified), ("1.0.0.1", .global),
        ("10.255.255.255", .private), ("9.255.255.255", .global), ("11.0.0.1", .global),
        ("100.64.0.0", .private), ("100.127.255.255", .private), ("100.63.255.255", .global),
        ("127.0.0.0", .loopback), ("126.255.255.255", .global), ("128.0.0.1", .global),
        ("169.254.0.1", .linkLocal), ("169.253.255.255", .global), ("169.255.0.1", .global),
        ("172.16.0.0", .private), ("172.15.255.255", .global),
        ("192.0.0.0", .reserved), ("192.0.0.8", .reserved), ("192.0.0.170", .reserved), ("192.0.0.255", .reserved),
        ("192.0.0.9", .global), ("192.0.0.10", .global), ("192.0.1.1", .global),
        ("192.0.2.1", .reserved), ("192.0.3.1", .global),
        ("192.31.196.1", .global), ("192.52.193.1", .global), ("192.175.48.1", .global),
        ("192.88.99.1", .reserved), ("192.88.98.255", .global), ("192.88.100.1", .global),
        ("192.168.255.255", .private), ("192.167.255.255", .global), ("192.169.0.1", .global),
        ("198.18.0.1", .reserved), ("198.19.255.255", .reserved), ("198.17.255.255", .global), ("198.20.0.1", .global),
        ("198.51.100.7", .reserved), ("198.51.99.255", .global), ("198.51.101.1", .global),
        ("203.0.113.7", .reserved), ("203.0.112.255", .global), ("203.0.114.1", .global),
        ("224.0.0.0", .multicast), ("239.255.255.255", .multicast), ("223.255.255.255", .global),
        ("240.0.0.0", .reserved), ("255.255.255.254", .reserved), ("255.255.255.255", .multicast),
    ]

    @Test("the IANA IPv4 special-purpose registry", arguments: SourceAddressTests.ipv4Blocks)
    func ipv4Registry(address: String, kind: SourceAddressKind) {
        #expect(SourceAddressKind(numericAddress: address) == kind, "\(address)")
    }

    /// Every block of the IANA IPv6 special-purpose registry, the deprecated site-local and the
    /// multicast blocks, and the space outside 2000::/3 that is not allocated for unicast.
    static let ipv6Blocks: [(String, SourceAddressKind)] = [
        ("::1", .loopback), ("::", .unspecified),
        ("::ffff:0:0", .unspecified), ("::ffff:1.2.3.4", .global),
        ("64:ff9b::1.2.3.4", .global), ("64:ff9b:1::1.2.3.4", .private), ("64:ff9b:1:ffff::1", .private),
        ("64:ff9b:0:0:1::1.2.3.4", .reserved),
        ("100::1", .reserved), ("100::ffff:ffff:ffff:ffff", .reserved), ("100:0:0:1::1", .reserved),
        ("2001:2::1", .reserved), ("2001:10::1", .reserved), ("2001:1::4", .reserved), ("2001:1::1:1", .reserved),
        ("2001:1ff:ffff::1", .reserved), ("2001:40::1", .reserved), ("2001:4:113::1", .reserved),
        ("2001:1::1", .global), ("2001:1::2", .global), ("2001:1::3", .global), ("2001:3::1", .global),
        ("2001:3:ffff::1", .global), ("2001:4:112::1", .global), ("2001:20::1", .global), ("2001:2f:ffff::1", .global),
        ("2001:30::1", .global), ("2001:3f:ffff::1", .global), ("2001:200::1", .global),
        ("2001:db8::1", .reserved), ("2001:db8:ffff:ffff::1", .reserved), ("2001:db7::1", .global), ("2001:db9::1", .global),
        ("2620:4f:8000::1", .global),
        ("3fff::1", .reserved), ("3fff:fff:ffff::1", .reserved), ("3fff:1000::1", .global), ("3ffe:ffff::1", .global),
        ("5f00::1", .reserved), ("5f00:ffff::1", .reserved),
        ("fc00::1", .private), ("fdff:ffff::1", .private),
        ("fe80::1", .linkLocal), ("febf:ffff::1", .linkLocal),
        ("fec0::1", .private), ("feff::1", .private), ("fe00::1", .reserved),
        ("ff00::1", .multicast), ("ff0e::1", .multicast),
        ("1fff::1", .reserved), ("4000::1", .reserved), ("e000::1", .reserved), ("2000::1", .global),
    ]

    @Test("the IANA IPv6 special-purpose registry", arguments: SourceAddressTests.ipv6Blocks)
    func ipv6Registry(address: String, kind: SourceAddressKind) {
        #expect(SourceAddressKind(numericAddress: address) == kind, "\(address)")
    }

    /// IPv6 forms that carry an IPv4 address: refused by their own block when it is not global,
    /// else with the carried address's kind when that is not. Teredo clients are written
    /// obfuscated (every bit inverted).
    static let carriers: [(String, SourceAddressKind)] = [
        ("::ffff:127.0.0.1", .loopback), ("::ffff:169.254.169.254", .linkLocal), ("::ffff:192.0.2.1", .reserved),
        ("::127.0.0.1", .reserved), ("::8.8.8.8", .reserved),
        ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b::7f00:1", .loopback), ("64:ff9b::a00:1", .private),
        ("64:ff9b::808:808", .global), ("64:ff9b:1::808:808", .private),
        ("2002:a9fe:a9fe::1", .linkLocal), ("2002:7f00:1::1", .loopback), ("2002:c0a8:101::1", .private),
        ("2002:e000:1::1", .multicast), ("2002::1", .unspecified), ("2002:808:808::1", .global),
        // Teredo: server 65.54.227.120, client 8.8.8.8 (f7f7:f7f7) is global.
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", .global),
        ("2001:0:a00:1:8000:63bf:f7f7:f7f7", .private),  // server 10.0.0.1
        ("2001:0:a9fe:a9fe:8000:63bf:f7f7:f7f7", .linkLocal),  // server 169.254.169.254
        ("2001:0:4136:e378:8000:63bf:3f57:fefe", .private),  // client 192.168.1.1
        ("2001:0:4136:e378:8000:63bf:5601:5601", .linkLocal),  // client 169.254.169.254
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", .loopback),  // client 127.0.0.1
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", .reserved),  // client 192.0.2.45
        ("fe80::5efe:a9fe:a9fe", .linkLocal), ("fe80::200:5efe:808:808", .linkLocal),
        ("2001:db8::5efe:7f00:1", .reserved), ("2001:db8::5efe:808:808", .reserved),
        ("2606:4700::5efe:a9fe:a9fe", .linkLocal), ("2606:4700::200:5efe:a00:1", .private),
        ("2606:4700::5efe:808:808", .global), ("2606:4700::200:5efe:808:808", .global),
        ("2606:4700::5eff:a9fe:a9fe", .global),
    ]

    @Test("IPv6 addresses that carry an IPv4 one are global only when it is", arguments: SourceAddressTests.carriers)
    func embedded(address: String, kind: SourceAddressKind) {
        #expect(SourceAddressKind(numericAddress: address) == kind, "\(address)")
        #expect(SourceAddressKind(numericAddress: address)?.isRefusedByDefault == (kind != .global))
    }

    @Test("the IPv4 addresses carried by each form")
    func carried() throws {
        func carried(_ text: String) throws -> [UInt32] {
            var address = in6_addr()
            try #require(inet_pton(AF_INET6, text, &address) == 1)
            return SourceAddressKind.embeddedIPv4(in: withUnsafeBytes(of: address) { Array($0) })
        }
        #expect(try carried("64:ff9b::808:404") == [0x0808_0404])
        #expect(try carried("2002:808:404::1") == [0x0808_0404])
        #expect(try carried("2001:0:4136:e378:8000:63bf:3fff:fdd2") == [0x4136_E378, 0xC000_022D])
        #expect(try carried("2606:4700::200:5efe:808:404") == [0x0808_0404])
        #expect(try carried("2606:4700::1111").isEmpty)
        #expect(SourceAddressKind.embeddedIPv4(in: [0x20, 0x02]).isEmpty)
        #expect(SourceAddressKind(ipv6: [0x20, 0x02]) == .reserved)
    }

    @Test("names and malformed addresses are not numeric addresses")
    func notNumeric() {
        for text in ["localhost", "example.com", "127.1", "1.2.3.4.5", "", "::g", "0x7f000001"] {
            #expect(SourceAddressKind(numericAddress: text) == nil, "\(text)")
        }
    }
}

@Suite("DNS rebinding: http sources are fetched from the address that was checked")
struct SourcePinningTests {
    @Test("the URL's host is replaced by the address, and the Host header keeps the name and port")
    func pin() throws {
        let url = try #require(URL(string: "http://images.example.com:8080/a%20b.jpg?w=1#f"))
        let v4 = try #require(SourceResolver.pin(url, to: "203.0.113.5"))
        #expect(v4.url.absoluteString == "http://203.0.113.5:8080/a%20b.jpg?w=1#f")
        #expect(v4.host == "images.example.com:8080")
        let plain = try #require(URL(string: "http://images.example.com/x.jpg"))
        let v6 = try #require(SourceResolver.pin(plain, to: "2001:db8::7"))
        #expect(v6.url.absoluteString == "http://[2001:db8::7]/x.jpg")
        #expect(v6.host == "images.example.com")
    }

    @Test("a public http source resolves to a pinned request whose image id is the source as given")
    func pinnedRequest() async throws {
        let resolver = SourceResolver(configuration: ServerConfiguration())
        let resolved = try await resolver.resolve("http://8.8.8.8/photo.jpg")
        #expect(resolved.imageID == "http://8.8.8.8/photo.jpg")
        guard case .url(_, let host) = resolved.source else { Issue.record("not a URL source"); return }
        #expect(host == "8.8.8.8")
        // https connects by name (TLS needs it); nothing is pinned.
        let secure = try await resolver.resolve("https://8.8.8.8/photo.jpg")
        guard case .url(_, let secureHost) = secure.source else { Issue.record("not a URL source"); return }
        #expect(secureHost == nil && secure.imageID == nil)
        // With local networks allowed there is no check, so nothing to pin either.
        var open = ServerConfiguration()
        open.allowsLocalNetworks = true
        #expect(try await SourceResolver(configuration: open).resolve("http://8.8.8.8/photo.jpg").imageID == nil)
    }

    @Test("a host getaddrinfo cannot resolve keeps its EAI code and gai_strerror's words, and is answered 502")
    func unresolvableHost() async throws {
        // Over MAXDNAME (1025) characters: glibc's resolver refuses the name before building a
        // query, so nothing is sent to any name server (EAI_NONAME, "Name or service not known").
        let host = String(repeating: "a.", count: 600) + "invalid"
        do {
            _ = try await SourceResolver.addresses(of: host)
            Issue.record("a name over MAXDNAME resolved")
        } catch {
            #expect(error.code == EAI_NONAME)
            #expect(error.message == String(cString: gai_strerror(EAI_NONAME)))
            #expect(error.host == host)
            #expect(ImageFailure(error) == ImageFailure(.badGateway, reason: "the source host could not be resolved"))
        }
    }
}
