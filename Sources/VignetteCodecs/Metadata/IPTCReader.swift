#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads IPTC-IIM metadata (the application record, 2:xx) and Photoshop's resolution resource
/// from what libvips calls "iptc-data": a Photoshop image resource block (`8BIM` resources, with
/// or without the `Photoshop 3.0` header, as in a JPEG's APP13) or bare IIM records (TIFF).
///
/// Datasets are named as imgproxy names them ("Name", "Caption", "Copyright Notice",
/// "Keywords", …; the IIM specification's titles); repeatable ones (keywords, by-lines, contacts,
/// supplemental categories) are arrays. Text is UTF-8 when valid, else Latin-1. Bounded by the
/// input: each length is checked before it is read.
package enum IPTCReader {
    /// `(iptc, photoshop)`: the IIM datasets as an object, and `{"resolution": {…}}` when the
    /// block holds Photoshop's ResolutionInfo (0x03ED); nil for what is not there.
    public static func read(_ block: Data) -> (iptc: MetadataValue?, photoshop: MetadataValue?) {
        var bytes = [UInt8](block)
        let header = Array("Photoshop 3.0\0".utf8)
        if bytes.starts(with: header) { bytes.removeFirst(header.count) }
        if bytes.first == 0x1C { return (datasets(bytes[...]), nil) }
        var iptc: MetadataValue?
        var photoshop: MetadataValue?
        var at = 0
        while at + 12 <= bytes.count, bytes[at..<(at + 4)].elementsEqual("8BIM".utf8) {
            let id = Int(bytes[at + 4]) << 8 | Int(bytes[at + 5])
            let nameLength = Int(bytes[at + 6])
            var cursor = at + 6 + ((nameLength + 2) & ~1)  // Pascal string padded to even length
            guard cursor + 4 <= bytes.count else { break }
            let size = bytes[cursor..<(cursor + 4)].reduce(0) { $0 << 8 | Int($1) }
            cursor += 4
            guard size >= 0, cursor + size <= bytes.count else { break }
            let data = bytes[cursor..<(cursor + size)]
            if id == 0x0404 { iptc = datasets(data) }
            if id == 0x03ED, size >= 16 { photoshop = .record([("resolution", resolution(Array(data)))]) }
            at = cursor + ((size + 1) & ~1)
        }
        return (iptc, photoshop)
    }

    /// The application record's datasets of IIM `data`.
    static func datasets(_ data: ArraySlice<UInt8>) -> MetadataValue? {
        var fields: [MetadataValue.Field] = []
        var at = data.startIndex
        while at + 5 <= data.endIndex, data[at] == 0x1C {
            let (record, dataset) = (data[at + 1], Int(data[at + 2]))
            var length = Int(data[at + 3]) << 8 | Int(data[at + 4])
            at += 5
            if length & 0x8000 != 0 {
                // Extended dataset: the low bits say how many bytes hold the length.
                let count = length & 0x7FFF
                guard count <= 4, at + count <= data.endIndex else { break }
                length = data[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
                at += count
            }
            guard at + length <= data.endIndex else { break }
            defer { at += length }
            guard record == 2, let name = names[dataset] else { continue }
            let raw = Array(data[at..<(at + length)])
            let text = String(validating: raw, as: UTF8.self) ?? String(raw.map { Character(Unicode.Scalar($0)) })
            if repeatable.contains(dataset) {
                if let index = fields.firstIndex(where: { $0.key == name }), case .array(var items) = fields[index].value {
                    items.append(.string(text))
                    fields[index].value = .array(items)
                } else {
                    fields.append(MetadataValue.Field(name, .array([.string(text)])))
                }
            } else if !fields.contains(where: { $0.key == name }) {
                fields.append(MetadataValue.Field(name, .string(text)))
            }
        }
        return fields.isEmpty ? nil : .object(fields)
    }

    /// Photoshop's ResolutionInfo: two 16.16 fixed-point resolutions, each with its unit and the
    /// unit the width or height is shown in.
    static func resolution(_ data: [UInt8]) -> MetadataValue {
        func fixed(_ at: Int) -> Double { Double(data[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }) / 65536 }
        func short(_ at: Int) -> Int { Int(data[at]) << 8 | Int(data[at + 1]) }
        let resolutionUnits = [1: "inches", 2: "cm"]
        let sizeUnits = [1: "inches", 2: "cm", 3: "points", 4: "picas", 5: "columns"]
        return .record([
            ("XResolution", .double(fixed(0))), ("XResolutionUnit", .string(resolutionUnits[short(4)] ?? "unknown")),
            ("WidthUnit", .string(sizeUnits[short(6)] ?? "unknown")),
            ("YResolution", .double(fixed(8))), ("YResolutionUnit", .string(resolutionUnits[short(12)] ?? "unknown")),
            ("HeightUnit", .string(sizeUnits[short(14)] ?? "unknown")),
        ])
    }

    /// Datasets that may repeat, kept as arrays.
    static let repeatable: Set<Int> = [20, 25, 80, 85, 118, 122]

    /// The application record's dataset titles.
    static let names: [Int: String] = [
        4: "Object Attribute Reference", 5: "Name", 7: "Edit Status", 10: "Urgency", 12: "Subject Reference", 15: "Category",
        20: "Supplemental Category", 22: "Fixture Identifier", 25: "Keywords", 26: "Content Location Code",
        27: "Content Location Name", 30: "Release Date", 35: "Release Time", 37: "Expiration Date", 38: "Expiration Time",
        40: "Special Instructions", 55: "Date Created", 60: "Time Created", 62: "Digital Creation Date",
        63: "Digital Creation Time", 65: "Originating Program", 70: "Program Version", 75: "Object Cycle", 80: "By-line",
        85: "By-line Title", 90: "City", 92: "Sub-location", 95: "Province/State", 100: "Country/Primary Location Code",
        101: "Country/Primary Location Name", 103: "Original Transmission Reference", 105: "Headline", 110: "Credit",
        115: "Source", 116: "Copyright Notice", 118: "Contact", 120: "Caption", 121: "Local Caption", 122: "Caption Writer",
    ]
}
