import Foundation
import Testing
import VignetteCodecs

/// `ImagingRuntime.libvipsMemory`: libvips' own accounting, as `/metrics` exports it.
@Suite("libvips' tracked memory")
struct LibvipsMemoryTests {
    @Test("after a decode the high-water mark is past zero and past what is tracked now; the operation cache is off")
    func afterDecode() throws {
        let data = try Data(contentsOf: TestFiles.fixture("baseline.jpg"))
        let image = try ImageDecoder().decode(data)
        let memory = ImagingRuntime.libvipsMemory
        #expect(image.byteCount > 0)
        #expect(memory.highWaterBytes > 0 && memory.highWaterBytes >= memory.trackedBytes)
        #expect(memory.trackedBytes >= 0 && memory.allocations >= 0 && memory.openFiles >= 0)
        #expect(memory.operationCacheLimit == 0 && memory.operationCacheEntries == 0)
    }
}
