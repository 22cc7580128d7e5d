import Foundation
import VignetteCodecs

/// Writes output files so that a reader never sees a partial one: the bytes go to a hidden
/// temporary file in the destination folder, which is renamed over the final name.
enum OutputFile {
    static func write(_ data: Data, to path: String) throws(ImagingError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try data.write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw ImagingError(.io, "cannot write \(path): \(error.localizedDescription)")
        }
        if rename(temporary.path, url.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw ImagingError(.io, "cannot write \(path): \(reason)")
        }
    }

    /// Creates `path` (and its parents) when missing; fails when it is a file.
    static func makeDirectory(_ path: String) throws(ImagingError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { return }
            throw ImagingError(.io, "\(path) exists and is not a directory")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ImagingError(.io, "cannot create \(path): \(error.localizedDescription)")
        }
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
