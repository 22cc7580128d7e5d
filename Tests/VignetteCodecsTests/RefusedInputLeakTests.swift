import Foundation
import Testing
@testable import VignetteCodecs

@Suite("Refused input leaves nothing behind")
struct RefusedInputLeakTests {
    @Test("bytes no loader takes: the VipsSource holding their copy is released each time")
    func unknownFormat() throws {
        let before = LoadedSource.liveSourceCount
        for index in 0..<200 {
            // A TIFF signature on bytes no loader takes, like the fuzzer's finding.
            var bytes = Data([0x49, 0x49, 0x2A, 0x00])
            bytes.append(Data(repeating: UInt8(index & 0xFF), count: 16_384))
            #expect(throws: ImagingError.self) { try ImageDecoder().probe(bytes) }
        }
        // Each refused input kept one before; other tests' sources come and go meanwhile.
        let more = LoadedSource.liveSourceCount - before
        #expect(more < 100, "\(more) more VipsSources alive")
    }
}
