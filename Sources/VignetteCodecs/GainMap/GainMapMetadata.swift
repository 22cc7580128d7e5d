#if canImport(Glibc)
import Glibc
#endif

/// How a gain map is applied (Adobe's `hdrgm` XMP namespace, as Ultra HDR writes it in the gain
/// map's XMP): per channel, or one value for all three. The values are log2 where the
/// specification says so (GainMapMin/Max, HDRCapacityMin/Max). Read from either attributes
/// (`hdrgm:GainMapMax="6.6"`) or elements (a value, or an `rdf:Seq` of three).
package struct GainMapMetadata: Sendable, Equatable {
    /// `hdrgm:Version`.
    package var version: String
    package var gainMapMin: [Double] = [0]
    package var gainMapMax: [Double]
    package var gamma: [Double] = [1]
    package var offsetSDR: [Double] = [1.0 / 64]
    package var offsetHDR: [Double] = [1.0 / 64]
    package var hdrCapacityMin: Double = 0
    package var hdrCapacityMax: Double
    package var baseRenditionIsHDR = false

    /// The namespace the fields are in.
    package static let namespace = "http://ns.adobe.com/hdr-gain-map/1.0/"

    /// The metadata in `xmp` (the packet's text); nil when it has no `hdrgm:Version`;
    /// `.corruptData` for a value that is not a number or breaks the specification's rules
    /// (GainMapMax below GainMapMin, a gamma not above 0, capacities out of order).
    package init?(xmp text: String) throws(ImagingError) {
        let xmp = Array(text.utf8)
        guard let prefix = Self.prefix(in: xmp), let version = Self.values(of: "Version", prefix: prefix, in: xmp).first else { return nil }
        self.version = version
        func numbers(_ name: String) throws(ImagingError) -> [Double]? {
            let texts = Self.values(of: name, prefix: prefix, in: xmp)
            guard !texts.isEmpty else { return nil }
            let values = texts.compactMap { text in
                Double(String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()))
            }
            guard values.count == texts.count, values.count == 1 || values.count == 3, values.allSatisfy({ $0.isFinite }) else {
                throw Self.corrupt("\(name) is not one or three numbers")
            }
            return values
        }
        guard let max = try numbers("GainMapMax"), let capacityMax = try numbers("HDRCapacityMax") else {
            throw Self.corrupt("no GainMapMax or HDRCapacityMax")
        }
        gainMapMax = max
        hdrCapacityMax = capacityMax[0]
        if let value = try numbers("GainMapMin") { gainMapMin = value }
        if let value = try numbers("Gamma") { gamma = value }
        if let value = try numbers("OffsetSDR") { offsetSDR = value }
        if let value = try numbers("OffsetHDR") { offsetHDR = value }
        if let value = try numbers("HDRCapacityMin") { hdrCapacityMin = value[0] }
        if let value = Self.values(of: "BaseRenditionIsHDR", prefix: prefix, in: xmp).first { baseRenditionIsHDR = value.lowercased() == "true" }
        try check()
    }

    /// The rules of the specification a gain map is dropped for breaking.
    func check() throws(ImagingError) {
        for channel in 0..<3 {
            func at(_ values: [Double]) -> Double { values[values.count == 3 ? channel : 0] }
            guard at(gainMapMax) >= at(gainMapMin) else { throw Self.corrupt("GainMapMax is below GainMapMin") }
            guard at(gamma) > 0 else { throw Self.corrupt("Gamma is not above 0") }
            guard at(offsetSDR) >= 0, at(offsetHDR) >= 0 else { throw Self.corrupt("an offset is below 0") }
        }
        guard hdrCapacityMin >= 0, hdrCapacityMax > hdrCapacityMin else { throw Self.corrupt("HDRCapacityMax is not above HDRCapacityMin") }
    }

    /// The gain map's 8-bit value meaning "no change" (a log2 boost of 0) in the first channel:
    /// what a padding of the gain map is filled with.
    package var neutralValue: Double {
        let range = gainMapMax[0] - gainMapMin[0]
        guard range > 0 else { return 0 }
        let recovery = min(1, max(0, (0 - gainMapMin[0]) / range))
        return (pow(recovery, gamma[0]) * 255).rounded()
    }

    static func corrupt(_ message: String) -> ImagingError { ImagingError(.corruptData, "gain map metadata: \(message)") }

    /// The prefix bound to the namespace (`xmlns:hdrgm="…"` gives "hdrgm").
    static func prefix(in xmp: [UInt8]) -> String? {
        guard let uri = find(Array(("\"" + namespace + "\"").utf8), in: xmp) ?? find(Array(("'" + namespace + "'").utf8), in: xmp),
            let xmlns = findLast(Array("xmlns:".utf8), in: xmp[..<uri])
        else { return nil }
        let name = xmp[(xmlns + 6)..<uri].prefix { $0 != UInt8(ascii: "=") && $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        return name.isEmpty ? nil : String(decoding: name, as: UTF8.self)
    }

    /// The values of `prefix:name`: an attribute's, or an element's text, or the `rdf:li` items of
    /// its sequence (at most three).
    static func values(of name: String, prefix: String, in xmp: [UInt8]) -> [String] {
        let qualified = prefix + ":" + name
        for quote in ["\"", "'"] {
            if let attribute = find(Array((" " + qualified + "=" + quote).utf8), in: xmp) ?? find(Array(("\n" + qualified + "=" + quote).utf8), in: xmp)
                ?? find(Array(("\t" + qualified + "=" + quote).utf8), in: xmp)
            {
                let start = attribute + qualified.utf8.count + 3
                guard let end = find(Array(quote.utf8), in: xmp, from: start) else { return [] }
                return [String(decoding: xmp[start..<end], as: UTF8.self)]
            }
        }
        let open = Array(("<" + qualified + ">").utf8), close = Array(("</" + qualified + ">").utf8)
        guard let opened = find(open, in: xmp), let closed = find(close, in: xmp, from: opened + open.count) else { return [] }
        let body = xmp[(opened + open.count)..<closed]
        guard body.contains(UInt8(ascii: "<")) else { return [String(decoding: body, as: UTF8.self)] }
        let item = Array("<rdf:li>".utf8), itemEnd = Array("</rdf:li>".utf8)
        var items: [String] = []
        var from = body.startIndex
        while items.count < 3, let start = find(item, in: xmp, from: from), start < closed, let end = find(itemEnd, in: xmp, from: start + item.count), end <= closed {
            items.append(String(decoding: xmp[(start + item.count)..<end], as: UTF8.self))
            from = end + itemEnd.count
        }
        return items
    }

    /// Where `needle` first starts in `hay` at or after `from`.
    package static func find(_ needle: [UInt8], in hay: [UInt8], from: Int = 0) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count, from >= 0 else { return nil }
        var index = from
        while index <= hay.count - needle.count {
            if hay[index] == needle[0], hay[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Where `needle` last starts in `hay` (indices of `hay`'s base).
    static func findLast(_ needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        var index = hay.endIndex - needle.count
        while index >= hay.startIndex {
            if hay[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }
}

/// The gain-map metadata of ISO 21496-1, the APP2 segment "urn:iso:std:iso:ts:21496:-1\0": in the
/// primary image only the versions, in the gain map the headrooms and, per channel, the gain
/// map's min, max, gamma and offsets as fractions. Checked bounded by the segment.
package struct ISOGainMapMetadata: Sendable, Equatable {
    /// The segment's signature.
    package static let signature: [UInt8] = Array("urn:iso:std:iso:ts:21496:-1".utf8) + [0]

    package var minimumVersion: UInt16
    package var writerVersion: UInt16
    /// Whether the segment holds the values (a gain map's) or only the versions (a primary's).
    package var hasValues: Bool
    /// The channels of the values: 1 or 3.
    package var channels = 0

    /// The metadata in an APP2 payload starting with `signature`; `.corruptData` when it is cut
    /// short or a denominator is 0.
    package init(payload: ArraySlice<UInt8>) throws(ImagingError) {
        let body = Array(payload.dropFirst(Self.signature.count))
        guard payload.starts(with: Self.signature), body.count >= 4 else { throw Self.corrupt("no version") }
        func u16(_ at: Int) -> UInt16 { UInt16(body[at]) << 8 | UInt16(body[at + 1]) }
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(body[at + $1]) } }
        minimumVersion = u16(0)
        writerVersion = u16(2)
        hasValues = body.count > 4
        // A newer minimum version than 0 is one this reader does not know: kept as it is, unread.
        guard hasValues, minimumVersion == 0 else { return }
        let flags = body[4]
        channels = flags & 0x80 != 0 ? 3 : 1
        // With a common denominator (flag 0x08): it, the two headroom numerators, then five
        // numerators a channel; otherwise the headrooms and five fractions a channel.
        var denominators: [UInt32]
        if flags & 0x08 != 0 {
            let needed = 5 + 12 + channels * 5 * 4
            guard body.count >= needed else { throw Self.corrupt("\(body.count) bytes, \(needed) needed") }
            denominators = [u32(5)]
        } else {
            let needed = 5 + 16 + channels * 5 * 8
            guard body.count >= needed else { throw Self.corrupt("\(body.count) bytes, \(needed) needed") }
            denominators = [u32(9), u32(17)]
            for channel in 0..<channels {
                let base = 21 + channel * 40
                denominators += (0..<5).map { u32(base + 8 * $0 + 4) }
            }
        }
        guard !denominators.contains(0) else { throw Self.corrupt("a denominator is 0") }
    }

    static func corrupt(_ message: String) -> ImagingError { ImagingError(.corruptData, "ISO 21496-1 metadata: \(message)") }
}
