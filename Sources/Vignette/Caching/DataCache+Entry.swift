#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DataCache {
    /// One entry of the cache: its bytes and the metadata kept with them (for the pipeline, an
    /// HTTP response's validators and expiry). Both live in the same file, so they are written,
    /// read, swept and removed together: a sweep can never keep the bytes and lose their expiry.
    public struct Entry: Sendable, Equatable {
        /// The bytes stored for the key.
        public var data: Data
        /// Opaque bytes stored with `data`; nil when none were given.
        public var metadata: Data?

        /// An entry of `data` with `metadata` (nil for none).
        public init(data: Data, metadata: Data? = nil) {
            self.data = data
            self.metadata = metadata
        }

        /// What the entry holds in memory while it waits for the disk.
        var byteCount: Int { data.count + (metadata?.count ?? 0) }

        /// The entry as one blob, in the layout of the disk cache's files (`VGN1`, the metadata's
        /// length, the metadata, the data): what a `SharedDataCaching` stores as a value.
        public func serialized() -> Data {
            var blob = Data(DataCacheEntryFile.header(metadataCount: metadata?.count))
            blob.reserveCapacity(DataCacheEntryFile.headerSize + byteCount)
            if let metadata { blob.append(metadata) }
            blob.append(data)
            return blob
        }

        /// The entry `serialized()` made `blob` from; nil when `blob` is not one (no header, or a
        /// metadata length longer than the blob).
        public init?(serialized blob: Data) {
            guard blob.count >= DataCacheEntryFile.headerSize,
                let count = DataCacheEntryFile.metadataCount(inHeader: Data(blob.prefix(DataCacheEntryFile.headerSize)))
            else { return nil }
            let start = blob.startIndex + DataCacheEntryFile.headerSize
            let metadataCount = count ?? 0
            guard metadataCount <= blob.count - DataCacheEntryFile.headerSize else { return nil }
            self.init(
                data: Data(blob[(start + metadataCount)...]),
                metadata: count.map { Data(blob[start..<(start + $0)]) })
        }
    }
}

/// The layout of an entry file: an 8-byte header, the metadata, then the data.
///
/// The header is the magic `VGN1` and the metadata's length as a little-endian `UInt32`
/// (`UInt32.max` for no metadata). A file without the magic (written by an earlier version, or by
/// something else) is not an entry of this cache and reads as a miss.
enum DataCacheEntryFile {
    static let magic: [UInt8] = Array("VGN1".utf8)
    static let headerSize = 8
    /// Metadata must be smaller than this; the length field holds it.
    static let maxMetadataBytes = Int(UInt32.max - 1)
    private static let noMetadata = UInt32.max

    /// The header for an entry with `metadataCount` bytes of metadata (nil for none).
    static func header(metadataCount: Int?) -> [UInt8] {
        let length = metadataCount.map { UInt32(clamping: $0) } ?? noMetadata
        return magic + withUnsafeBytes(of: length.littleEndian) { Array($0) }
    }

    /// The metadata length a header announces: `.some(nil)` for none, nil when it is no header of ours.
    static func metadataCount(inHeader header: Data) -> Int?? {
        guard header.count == headerSize, header.prefix(4).elementsEqual(magic) else { return nil }
        let bytes = Array(header.suffix(4))
        let length = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        return .some(length == noMetadata ? nil : Int(length))
    }
}
