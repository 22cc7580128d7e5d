#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension GainMapJPEG {
    /// The output file: `primary` (a JPEG just encoded) with the source primary's XMP (its
    /// Container directory's GainMap item given the new gain map's length) and ISO 21496-1
    /// segments and an MPF index of two images (the source's entry attributes, the new sizes and
    /// offsets), followed by `gainMap` (a JPEG just encoded) with the source gain map's XMP and ISO
    /// segments. Segments of those kinds already in the encoded images are replaced.
    package func assembled(primary: Data, gainMap: Data) throws(ImagingError) -> Data {
        let secondary = try Self.inserting([gainMapXMP.map { (0xE1, $0) }, gainMapISO.map { (0xE2, $0) }], into: [UInt8](gainMap))
        let xmp = try primaryXMP.map { (xmp) throws(ImagingError) in try Self.updatingGainMapLength(in: xmp, to: secondary.count) }
        // The index is written with placeholder sizes first: its own size never changes.
        var index = MultiPictureIndex(littleEndian: self.index.littleEndian, version: self.index.version, entries: [primaryEntry, gainMapEntry])
        index.entries[0].offset = 0
        index.entries[0].size = 0
        index.entries[1].size = UInt32(secondary.count)
        index.entries[1].offset = 0
        let segments: [(UInt8, [UInt8])?] = [xmp.map { (0xE1, $0) }, primaryISO.map { (0xE2, $0) }, (0xE2, index.payload)]
        var file = try Self.inserting(segments, into: [UInt8](primary))
        // Where the index's TIFF header ended up, from which the gain map's offset counts.
        let header = try JPEGSegments(file)
        guard let mpf = header.first(0xE2, signature: MultiPictureIndex.signature, in: file), file.count <= Int(UInt32.max) - secondary.count else {
            throw ImagingError(.operationFailed, "gain map: the MPF index was not written")
        }
        let base = mpf.payload.lowerBound + MultiPictureIndex.headerOffset
        index.entries[0].size = UInt32(file.count)
        index.entries[1].offset = UInt32(file.count - base)
        file.replaceSubrange(mpf.payload, with: index.payload)
        return Data(file + secondary)
    }

    /// `jpeg` with `segments` (marker, payload) placed after its SOI and leading JFIF/EXIF
    /// segments, and any XMP, MPF or ISO 21496-1 segment it had left out.
    static func inserting(_ segments: [(UInt8, [UInt8])?], into jpeg: [UInt8]) throws(ImagingError) -> [UInt8] {
        let header = try JPEGSegments(jpeg)
        let replaced: [(UInt8, [UInt8])] = [(0xE1, xmpSignature), (0xE2, MultiPictureIndex.signature), (0xE2, ISOGainMapMetadata.signature)]
        var insertAt = 2
        for segment in header.segments {
            let isLeading = segment.marker == 0xE0 || (segment.marker == 0xE1 && jpeg[segment.payload].starts(with: Array("Exif".utf8)))
            guard isLeading, segment.whole.lowerBound == insertAt else { break }
            insertAt = segment.whole.upperBound
        }
        var out = Array(jpeg[..<insertAt])
        for case let (marker, payload)? in segments { out += try JPEGSegments.segment(marker, payload) }
        var copied = insertAt
        for segment in header.segments where segment.whole.lowerBound >= insertAt {
            let drop = replaced.contains { segment.marker == $0.0 && jpeg[segment.payload].starts(with: $0.1) }
            guard drop else { continue }
            out += jpeg[copied..<segment.whole.lowerBound]
            copied = segment.whole.upperBound
        }
        out += jpeg[copied...]
        return out
    }

    /// The XMP payload with the `Length` of the Container directory's item whose `Semantic` is
    /// "GainMap" set to `length` (the item left as it is when it has no length).
    static func updatingGainMapLength(in payload: [UInt8], to length: Int) throws(ImagingError) -> [UInt8] {
        var text = Array(payload.dropFirst(xmpSignature.count))
        guard let semantic = GainMapMetadata.find(Array("Semantic=\"GainMap\"".utf8), in: text) else { return payload }
        // The item element around it: from its "<" to its ">".
        guard let open = text[..<semantic].lastIndex(of: UInt8(ascii: "<")),
            let close = text[semantic...].firstIndex(of: UInt8(ascii: ">"))
        else { return payload }
        let key = Array(":Length=\"".utf8)
        guard let found = GainMapMetadata.find(key, in: text, from: open), found < close,
            let end = text[(found + key.count)..<close].firstIndex(of: UInt8(ascii: "\""))
        else { return payload }
        text.replaceSubrange((found + key.count)..<end, with: Array(String(length).utf8))
        let updated = xmpSignature + text
        guard updated.count <= 65533 else { throw ImagingError(.invalidArgument, "gain map: the XMP packet is over 65533 bytes") }
        return updated
    }
}
