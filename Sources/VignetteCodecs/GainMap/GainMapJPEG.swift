#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JPEG with a gain map (Ultra HDR, ISO 21496-1): the primary image's gain-map segments, the
/// MPF index, and the gain map — the secondary JPEG the index points to, with its own XMP
/// (`hdrgm`) and ISO 21496-1 segments. Found and checked from the headers alone, every offset
/// bounded by the file; the pixels are not read here.
package struct GainMapJPEG: Sendable {
    /// The primary's APP1 XMP payload (namespace header included), when it has one.
    package let primaryXMP: [UInt8]?
    /// The primary's ISO 21496-1 APP2 payload, when it has one.
    package let primaryISO: [UInt8]?
    /// The source's index: byte order, version, and the entries' attributes kept in the output.
    package let index: MultiPictureIndex
    /// The primary's and the gain map's entries in `index`.
    package let primaryEntry: MultiPictureIndex.Entry, gainMapEntry: MultiPictureIndex.Entry
    /// The gain map's JPEG bytes.
    package let gainMap: Data
    /// The gain map's APP1 XMP and ISO 21496-1 APP2 payloads.
    package let gainMapXMP: [UInt8]?, gainMapISO: [UInt8]?
    /// The `hdrgm` metadata of the gain map's XMP, when it has them.
    package let metadata: GainMapMetadata?
    /// The gain map's and the primary's sizes as stored (before any EXIF orientation).
    package let gainMapSize: PixelSize, primarySize: PixelSize

    /// The XMP segment's signature.
    package static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// Whether `data` may hold a gain map: a JPEG whose header has an MPF segment. Cheap, for the
    /// many JPEGs without one.
    package static func mayHaveGainMap(_ data: Data) -> Bool {
        guard data.count > 4, data.starts(with: [0xFF, 0xD8]) else { return false }
        // The header is almost always in the first MiB; a longer one is walked whole.
        var head = [UInt8](data.prefix(1 << 20))
        if (try? JPEGSegments(head)) == nil, data.count > head.count { head = [UInt8](data) }
        guard let segments = try? JPEGSegments(head) else { return false }
        return segments.first(0xE2, signature: MultiPictureIndex.signature, in: head) != nil
    }

    /// The gain map of `data`; nil when it has no MPF index or no secondary image with gain-map
    /// metadata; `.corruptData` when the index, a header or the metadata are broken or lie (an
    /// image past the end of the file, a gain map larger than the image).
    package init?(_ data: Data) throws(ImagingError) {
        let bytes = [UInt8](data)
        let header = try JPEGSegments(bytes)
        guard let mpf = header.first(0xE2, signature: MultiPictureIndex.signature, in: bytes) else { return nil }
        let index = try MultiPictureIndex(payload: bytes[mpf.payload])
        guard let primarySize = header.frameSize(in: bytes), primarySize.width > 0, primarySize.height > 0 else {
            throw ImagingError(.corruptData, "gain map: the primary image has no frame header")
        }
        // Offsets count from the TIFF header, inside the MPF segment.
        let base = mpf.payload.lowerBound + MultiPictureIndex.headerOffset
        var found: (entry: MultiPictureIndex.Entry, bytes: [UInt8], header: JPEGSegments)?
        for entry in index.entries.dropFirst() where entry.offset > 0 {
            let start = base + Int(entry.offset), size = Int(entry.size)
            guard size >= 4, start <= bytes.count - size else {
                throw ImagingError(.corruptData, "MPF: an image of \(size) bytes at \(start) lies past the file's \(bytes.count)")
            }
            let image = Array(bytes[start..<(start + size)])
            guard let imageHeader = try? JPEGSegments(image) else { continue }
            let hasXMP = imageHeader.first(0xE1, signature: Self.xmpSignature, in: image).map {
                String(decoding: image[$0.payload], as: UTF8.self).contains(GainMapMetadata.namespace)
            } ?? false
            if hasXMP || imageHeader.first(0xE2, signature: ISOGainMapMetadata.signature, in: image) != nil {
                found = (entry, image, imageHeader)
                break
            }
        }
        guard let found else { return nil }
        let image = found.bytes
        guard let size = found.header.frameSize(in: image), size.width > 0, size.height > 0,
            size.width <= primarySize.width, size.height <= primarySize.height
        else { throw ImagingError(.corruptData, "gain map: its size is missing or larger than the image's \(primarySize)") }
        let xmp = found.header.first(0xE1, signature: Self.xmpSignature, in: image).map { Array(image[$0.payload]) }
        let iso = found.header.first(0xE2, signature: ISOGainMapMetadata.signature, in: image).map { Array(image[$0.payload]) }
        let metadata = try xmp.flatMap { (xmp) throws(ImagingError) in
            try GainMapMetadata(xmp: String(decoding: xmp.dropFirst(Self.xmpSignature.count), as: UTF8.self))
        }
        if let iso { _ = try ISOGainMapMetadata(payload: iso[...]) }
        guard metadata != nil || iso != nil else { throw ImagingError(.corruptData, "gain map: neither hdrgm nor ISO 21496-1 metadata") }
        let primaryISO = header.first(0xE2, signature: ISOGainMapMetadata.signature, in: bytes).map { Array(bytes[$0.payload]) }
        if let primaryISO { _ = try ISOGainMapMetadata(payload: primaryISO[...]) }
        self.primaryXMP = header.first(0xE1, signature: Self.xmpSignature, in: bytes).map { Array(bytes[$0.payload]) }
        self.primaryISO = primaryISO
        self.index = index
        self.primaryEntry = index.entries[0]
        self.gainMapEntry = found.entry
        self.gainMap = Data(image)
        self.gainMapXMP = xmp
        self.gainMapISO = iso
        self.metadata = metadata
        self.gainMapSize = size
        self.primarySize = primarySize
    }
}
