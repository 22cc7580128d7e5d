#if canImport(Glibc)
import Glibc
#endif

/// What kind of network an IP address is on, for the server's SSRF protection: by default a
/// source may only be fetched from a package address.
package enum SourceAddressKind: String, Sendable, Equatable {
    /// A package unicast address.
    case global
    /// 127.0.0.0/8, ::1.
    case loopback
    /// 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7 (unique local).
    case `private`
    /// 169.254/16, fe80::/10.
    case linkLocal
    /// 224/4, ff00::/8, and the IPv4 broadcast address.
    case multicast
    /// 0.0.0.0/8, ::.
    case unspecified
    /// 240/4 and other ranges no host should be reached at (documentation, benchmarking).
    case reserved

    /// Whether a source at such an address is refused unless the server allows local networks.
    package var isRefusedByDefault: Bool { self != .global }

    /// The kind of the numeric address `text` (IPv4 dotted quad or IPv6, an IPv4-mapped IPv6
    /// address counting as its IPv4 address); nil when `text` is not a numeric address.
    package init?(numericAddress text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = SourceAddressKind(ipv4: UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        self = SourceAddressKind(ipv6: bytes)
    }

    /// The kind of an IPv4 address given as a host-order integer.
    package init(ipv4 address: UInt32) {
        let a = address >> 24, b = (address >> 16) & 0xFF
        switch a {
        case 0: self = .unspecified
        case 10: self = .private
        case 127: self = .loopback
        case 100 where (64...127).contains(b): self = .private
        case 169 where b == 254: self = .linkLocal
        case 172 where (16...31).contains(b): self = .private
        case 192 where b == 168: self = .private
        case 192 where b == 0 && (address >> 8) & 0xFF == 2: self = .reserved  // 192.0.2/24 documentation
        case 198 where b == 18 || b == 19: self = .reserved  // 198.18/15 benchmarking
        case 224...239: self = .multicast
        case 240...255: self = address == 0xFFFF_FFFF ? .multicast : .reserved
        default: self = .global
        }
    }

    /// The kind of an IPv6 address given as its 16 bytes in network order.
    package init(ipv6 bytes: [UInt8]) {
        guard bytes.count == 16 else {
            self = .reserved
            return
        }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            // ::ffff:a.b.c.d — an IPv4 address in IPv6 clothing.
            self = SourceAddressKind(ipv4: bytes[12..<16].reduce(0) { $0 << 8 | UInt32($1) })
            return
        }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) {
            self = bytes[15] == 1 ? .loopback : .unspecified
            return
        }
        switch bytes[0] {
        case 0xFF: self = .multicast
        case 0xFC, 0xFD: self = .private
        case 0xFE where bytes[1] & 0xC0 == 0x80: self = .linkLocal
        case 0xFE where bytes[1] & 0xC0 == 0xC0: self = .private  // fec0::/10, the old site-local
        default:
            // 2001:db8::/32 is for documentation; ::/96 and 64:ff9b::/96 are not hosts to fetch from either.
            if bytes[0] == 0x20 && bytes[1] == 0x01 && bytes[2] == 0x0D && bytes[3] == 0xB8 { self = .reserved }
            else if bytes[0..<12].allSatisfy({ $0 == 0 }) { self = .reserved }
            else { self = .global }
        }
    }
}
