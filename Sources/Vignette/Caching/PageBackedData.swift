#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Copies of bytes a memory cache keeps for long, in pages of their own (an anonymous `mmap`,
/// `munmap`ped when the last `Data` sharing them goes), so that they stay out of malloc's heap.
///
/// Kept in the heap, a cache that replaces entries of every size all the time, between the
/// pipeline's short-lived buffers, fragments it (see the server's soak in
/// docs/performance.md). In pages of its own, an entry's memory goes back to the system when the
/// entry is evicted.
enum PageBackedData {
    /// Smaller copies stay in the heap: a page each would waste more than their fragments do.
    static let minimumCount = 16 << 10

    /// The bytes `copy` of `count` bytes keeps alive: whole pages from `minimumCount` on; below it,
    /// a malloc block and `Data`'s storage object (`CacheEntryCost.mallocBlock`, twice).
    static func footprint(ofCount count: Int) -> Int {
        guard count >= minimumCount else { return CacheEntryCost.mallocBlock(count) + CacheEntryCost.mallocBlock(dataStorageSize) }
        let page = max(1, sysconf(Int32(_SC_PAGESIZE)))
        return (count + page - 1) / page * page
    }

    /// The size of the object a heap-backed `Data` keeps its bytes' address, length and deallocator in.
    static let dataStorageSize = 64

    /// `data` in pages of its own when it is at least `minimumCount` bytes (and the mapping
    /// succeeds); `data` itself otherwise.
    static func copy(_ data: Data) -> Data {
        let count = data.count
        guard count >= minimumCount else { return data }
        let memory = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let memory, memory != MAP_FAILED else { return data }
        data.copyBytes(to: memory.assumingMemoryBound(to: UInt8.self), count: count)
        return Data(bytesNoCopy: memory, count: count, deallocator: .custom { pointer, count in munmap(pointer, count) })
    }
}
