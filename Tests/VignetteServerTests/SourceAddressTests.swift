import Testing
import Foundation
import Vignette
import VignetteHTTP
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
        let request = try resolved.request(ImageRecipe(), limits: .untrusted)
        #expect(request.effectiveImageID == "http://8.8.8.8/photo.jpg")
        #expect(request.userInfo[HTTPDataLoader.hostHeaderKey] as? String == "8.8.8.8")
        // https connects by name (TLS needs it); nothing is pinned.
        let secure = try await resolver.resolve("https://8.8.8.8/photo.jpg").request(ImageRecipe(), limits: .untrusted)
        #expect(secure.userInfo[HTTPDataLoader.hostHeaderKey] == nil)
        // With local networks allowed there is no check, so nothing to pin either.
        var open = ServerConfiguration()
        open.allowsLocalNetworks = true
        #expect(try await SourceResolver(configuration: open).resolve("http://8.8.8.8/photo.jpg").pinned == nil)
    }
}
