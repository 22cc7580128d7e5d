import Foundation
import Testing
import Vignette

/// A disk cache whose folder cannot be made says why with the system's own code.
@Suite struct DataCacheFolderErrorTests {
    @Test("A folder that cannot be made is .io with mkdir's errno: ENOTDIR under a file")
    func folderUnderAFileKeepsTheErrno() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-datacache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/a-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        do {
            _ = try DataCache(path: file + "/cache")
            Issue.record("a cache folder under a file was made")
        } catch let error as ImagingError {
            #expect(error.kind == .io)
            #expect(error.code == .system(call: "mkdir", errno: ENOTDIR))
            #expect(error.message == "cannot create the cache folder \(file)/cache: \(String(cString: strerror(ENOTDIR)))")
        }
    }
}
