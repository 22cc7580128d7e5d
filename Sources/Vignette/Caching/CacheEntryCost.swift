#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What an entry of a memory cache keeps alive, in bytes: the cost `ImageCache` and
/// `EncodedImageCache` give it, so that a cache's byte gauge is the memory its entries hold.
///
/// - the value: an encoded result's bytes as `PageBackedData` keeps them (whole pages), an image's
///   pixels, metadata and header (`Image.retainedByteCount`);
/// - the key: the heap blocks its strings and processor list take (`heapBytes`);
/// - the bookkeeping: the entry's node in `LRUCache`'s array and its slot in the index, counted
///   twice over, since both grow by doubling and so run between half and fully used.
enum CacheEntryCost {
    /// An encoded result of `data` stored under `key`.
    static func encoded(_ data: Data, key: EncodedImageKey) -> Int {
        PageBackedData.footprint(ofCount: data.count) + key.heapBytes
            + bookkeeping(key: EncodedImageKey.self, value: EncodedImage.self)
    }

    /// A decoded image stored under `key`.
    static func image(_ image: Image, key: ImageCacheKey) -> Int {
        image.retainedByteCount + key.key.heapBytes + bookkeeping(key: ImageCacheKey.self, value: ImageContainer.self)
    }

    /// The bytes an `LRUCache` spends on one entry besides its key's and value's heap blocks.
    static func bookkeeping<Key: Hashable & Sendable, Value: Sendable>(key: Key.Type, value: Value.Type) -> Int {
        let node = MemoryLayout<LRUState<Key, Value>.Node>.stride
        let slot = MemoryLayout<Key>.stride + MemoryLayout<Int>.stride
        return 2 * (node + slot)
    }

    /// The heap block a string's bytes take: none for up to 15 UTF-8 bytes (stored inline), else a
    /// 32-byte header and the bytes, in malloc's 16-byte steps.
    static func heapBytes(of string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : mallocBlock(32 + count)
    }

    /// The heap block of an array of `count` elements of `stride` bytes: none when empty.
    static func heapBytes(arrayOf count: Int, stride: Int) -> Int {
        count == 0 ? 0 : mallocBlock(32 + count * stride)
    }

    /// A malloc block holding `bytes`: its 8-byte header, rounded up to 16.
    static func mallocBlock(_ bytes: Int) -> Int { (bytes + 8 + 15) & ~15 }
}

extension ImageKey {
    /// The heap blocks the key holds: its image id, its processor list and each processor's
    /// boxed identifier (an `AnyHashable`'s box, counted as one small block).
    var heapBytes: Int {
        CacheEntryCost.heapBytes(of: imageID)
            + CacheEntryCost.heapBytes(arrayOf: processors.count, stride: MemoryLayout<AnyHashable>.stride)
            + processors.count * CacheEntryCost.mallocBlock(MemoryLayout<AnyHashable>.stride)
    }
}

extension EncodedImageKey {
    /// The heap blocks the key holds: its image key's and its encoding id's.
    var heapBytes: Int { image.heapBytes + CacheEntryCost.heapBytes(of: encoding) }
}
