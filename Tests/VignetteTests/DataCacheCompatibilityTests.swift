import Foundation
import Testing
@testable import Vignette

/// Disk caches written before the digests moved from swift-crypto to GLib: the file names are the
/// same SHA-256, so an entry file laid out by hand as earlier versions wrote it is read back.
@Suite struct DataCacheCompatibilityTests {
    @Test func entryWrittenByAnEarlierVersionIsRead() throws {
        let folder = DataCacheFolder()
        defer { folder.remove() }
        let key = "images/cat.jpg"
        // `printf images/cat.jpg | sha256sum` (coreutils).
        let name = "80d673d8b5b389d3e03ebd3c6528fad02bf648c91a046bc2c37b2bd76fd938f1"
        // "VGN1", no metadata (UInt32.max, little-endian), then the data.
        let bytes: [UInt8] = Array("VGN1".utf8) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("earlier bytes".utf8)
        _ = try DataCache(path: folder.path)  // makes the folder
        try Data(bytes).write(to: URL(fileURLWithPath: folder.path + "/" + name))

        let cache = try DataCache(path: folder.path)
        #expect(cache.filename(for: key) == name)
        #expect(cache.data(for: key) == Data("earlier bytes".utf8))
    }
}
