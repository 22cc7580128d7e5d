import Foundation
import VignetteCodecs

/// Reads an input file within the byte budget, with a one-line reason when it cannot.
enum InputFile {
    static func read(_ path: String, limits: DecodingLimits) throws(ImagingError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImagingError(.io, "no such file")
        }
        if isDirectory.boolValue { throw ImagingError(.io, "is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ImagingError(.io, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        let data: Data?
        do {
            data = try handle.read(upToCount: limits.maxInputBytes == .max ? .max : limits.maxInputBytes + 1)
        } catch {
            throw ImagingError(.io, "cannot read: \(error.localizedDescription)")
        }
        let bytes = data ?? Data()
        if bytes.count > limits.maxInputBytes {
            throw ImagingError(.limitExceeded, "input is over the limit of \(limits.maxInputBytes) bytes")
        }
        return bytes
    }
}
