#if canImport(Glibc)
import Glibc
#endif

/// What kind of network an IP address is on, for the server's SSRF protection: by default a
/// source may only be fetched from a global address.
package enum SourceAddressKind: String, Sendable, Equatable {
    /// A globally reachable unicast address.
    case global
    /// 127.0.0.0/8, ::1.
    case loopback
    /// 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7 (unique local),
    /// fec0::/10 (the deprecated site-local), 64:ff9b:1::/48 (local-use NAT64).
    case `private`
    /// 169.254/16, fe80::/10.
    case linkLocal
    /// 224/4, ff00::/8, and the IPv4 broadcast address.
    case multicast
    /// 0.0.0.0/8, ::.
    case unspecified
    /// 240/4 and the other ranges no host should be reached at: documentation, benchmarking,
    /// protocol assignments, IPv6 outside the blocks allocated for unicast.
    case reserved

    /// Whether a source at such an address is refused unless the server allows local networks.
    package var isRefusedByDefault: Bool { self != .global }

    /// The kind of the numeric address `text` (IPv4 dotted quad or IPv6); nil when `text` is not
    /// a numeric address.
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

    /// The kind of an IPv4 address given as a host-order integer. Every range the special-purpose
    /// registry lists as not globally reachable is refused.
    package init(ipv4 address: UInt32) {
        let a = address >> 24, b = (address >> 16) & 0xFF, c = (address >> 8) & 0xFF, d = address & 0xFF
        switch a {
        case 0: self = .unspecified
        case 10: self = .private
        case 127: self = .loopback
        case 100 where (64...127).contains(b): self = .private
        case 169 where b == 254: self = .linkLocal
        case 172 where (16...31).contains(b): self = .private
        case 192 where b == 168: self = .private
        // 192.0.0/24 (protocol assignments) is not reachable but for two anycast services in it.
        case 192 where b == 0 && c == 0: self = d == 9 || d == 10 ? .global : .reserved
        case 192 where b == 0 && c == 2: self = .reserved  // documentation
        case 192 where b == 88 && c == 99: self = .reserved  // the deprecated 6to4 relay anycast
        case 198 where b == 18 || b == 19: self = .reserved  // benchmarking
        case 198 where b == 51 && c == 100: self = .reserved  // documentation
        case 203 where b == 0 && c == 113: self = .reserved  // documentation
        case 224...239: self = .multicast
        case 240...255: self = address == 0xFFFF_FFFF ? .multicast : .reserved
        default: self = .global
        }
    }

    /// The kind of an IPv6 address given as its 16 bytes in network order. An address in a global
    /// block that carries an IPv4 one (mapped, NAT64, 6to4, Teredo, ISATAP) reaches that IPv4 host
    /// through a translator or a tunnel, so it is global only when every IPv4 address it carries
    /// is; otherwise it has the kind of the first one that is not.
    package init(ipv6 bytes: [UInt8]) {
        guard bytes.count == 16 else {
            self = .reserved
            return
        }
        let block = SourceAddressKind(ipv6Block: bytes)
        guard block == .global else {
            self = block
            return
        }
        let carried = SourceAddressKind.embeddedIPv4(in: bytes).lazy.map(SourceAddressKind.init(ipv4:))
        self = carried.first(where: { $0 != .global }) ?? .global
    }

    /// The kind of the block a 16-byte IPv6 address is in, leaving aside the IPv4 addresses it
    /// may carry. Only 2000::/3 is allocated for global unicast; outside it the few reachable
    /// blocks are named and everything else is reserved.
    private init(ipv6Block bytes: [UInt8]) {
        let group = { (offset: Int) in UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) }
        let (first, second, third) = (group(0), group(2), group(4))
        guard bytes[0] & 0xE0 == 0x20 else {
            let zeros = bytes[0..<10].allSatisfy { $0 == 0 }
            switch first {
            case 0 where bytes[0..<15].allSatisfy({ $0 == 0 }): self = bytes[15] == 1 ? .loopback : .unspecified
            case 0 where zeros && group(10) == 0xFFFF: self = .global  // ::ffff:0:0/96, mapped: its IPv4 address decides
            case 0x64 where second == 0xFF9B && third == 1: self = .private  // local-use NAT64
            case 0x64 where second == 0xFF9B && bytes[4..<12].allSatisfy({ $0 == 0 }): self = .global  // well-known NAT64
            case 0xFF00...0xFFFF: self = .multicast
            case 0xFC00...0xFDFF: self = .private  // unique local
            case 0xFE80...0xFEBF: self = .linkLocal
            case 0xFEC0...0xFEFF: self = .private  // the deprecated site-local
            default: self = .reserved  // IPv4-compatible, discard-only, SRv6 SIDs, unallocated
            }
            return
        }
        switch first {
        case 0x2001 where second == 0:
            self = .global  // Teredo: its server and client decide
        case 0x2001 where second == 1:
            // Anycast services inside the protocol assignments.
            let anycast = bytes[4..<15].allSatisfy { $0 == 0 } && (1...3).contains(bytes[15])
            self = anycast ? .global : .reserved
        case 0x2001 where second == 3 || (second == 4 && third == 0x112) || (0x20...0x3F).contains(second):
            self = .global  // AMT, AS112, ORCHIDv2, drone remote ID
        case 0x2001 where second <= 0x1FF:
            self = .reserved  // the rest of the protocol assignments, 2001::/23
        case 0x2001 where second == 0xDB8:
            self = .reserved  // documentation
        case 0x3FFF where second <= 0x0FFF:
            self = .reserved  // documentation, 3fff::/20
        default:
            self = .global  // 6to4 included: its IPv4 address decides
        }
    }

    /// The IPv4 addresses an IPv6 address in a global block may carry, as host-order integers:
    /// the last 32 bits of an IPv4-mapped or well-known-prefix NAT64 address or of an ISATAP
    /// interface id, the 32 bits after a 6to4 prefix, and a Teredo address's server and
    /// (de-obfuscated) client. The compatible and local-use NAT64 forms are refused by their
    /// block whatever they carry.
    static func embeddedIPv4(in bytes: [UInt8]) -> [UInt32] {
        guard bytes.count == 16 else { return [] }
        let word = { (offset: Int) in bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        var found: [UInt32] = []
        let zeros = bytes[0..<10].allSatisfy { $0 == 0 }
        if zeros && word(8) & 0xFFFF == 0xFFFF { found.append(word(12)) }  // IPv4-mapped
        if word(0) == 0x0064_FF9B && bytes[4..<12].allSatisfy({ $0 == 0 }) { found.append(word(12)) }  // NAT64
        if word(0) >> 16 == 0x2002 { found.append(word(2)) }  // 6to4
        if word(0) == 0x2001_0000 { found.append(contentsOf: [word(4), ~word(12)]) }  // Teredo
        if word(8) & 0xFCFF_FFFF == 0x0000_5EFE { found.append(word(12)) }  // ISATAP, either u bit
        return found
    }
}
