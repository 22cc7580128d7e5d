import Testing
import VignetteServer

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
