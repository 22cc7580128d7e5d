#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Vignette
import VignetteHTTP
import VignetteSupport

/// Turns the command line's inputs into files: an http(s) URL or an s3 object stays as it is, a
/// directory gives its images (recursively, sorted), an s3 prefix (`s3://BUCKET/`, a key ending in
/// `/`, or one ending in `*`) the images listed under it (sorted by key), a pattern that names no file is expanded as a shell glob (for
/// scripts that quote it), anything else is taken as it is (and fails later, with its own line, if
/// it is no image). An input given twice counts once.
enum InputExpansion {
    /// File name extensions taken from directories.
    static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "png", "webp", "heic", "heif", "avif", "gif", "tif", "tiff", "jxl",
    ]

    struct Result {
        var files: [String] = []
        /// For each file, what `--shard` hashes: its path relative to the folder given on the
        /// command line when it was found in one, else the input as given (a path or a URL).
        var shardKeys: [String] = []
        /// Patterns that matched nothing, and folders that could not be read, with the reason and
        /// what `--shard` hashes: the pattern as given; nil for a folder, which every shard reports
        /// (any shard may have had images in it).
        var problems: [(input: String, reason: String, shardKey: String?)] = []
    }

    /// The files of `inputs`; `lister` lists the objects under an s3 prefix (nil: s3 prefixes fail,
    /// each with a line).
    static func expand(_ inputs: [String], lister: HTTPDataLoader? = nil) async -> Result {
        var result = Result()
        var seen = Set<String>()
        for input in inputs where seen.insert(input).inserted {
            if let prefix = s3Prefix(input) {
                await expand(prefix, input: input, lister: lister, into: &result)
            } else if RemoteInputs.isURL(input) {
                result.files.append(input)
                result.shardKeys.append(input)
            } else if Folder.exists(input) {
                do {
                    let found = try images(in: input)
                    let prefix = input.hasSuffix("/") ? input.count : input.count + 1
                    result.files += found
                    result.shardKeys += found.map { String($0.dropFirst(prefix)) }
                } catch {
                    result.problems.append((input, "cannot read the folder: \(folderReason(input) ?? "\(error)")", nil))
                }
            } else if !OutputFile.exists(input), input.contains(where: { "*?[".contains($0) }) {
                let matches = glob(input)
                if matches.isEmpty { result.problems.append((input, "no file matches", input)) }
                result.files += matches
                result.shardKeys += matches
            } else {
                result.files.append(input)
                result.shardKeys.append(input)
            }
        }
        return result
    }

    /// The location to list when `input` is an s3 prefix: no key, a key ending in `/`, or one
    /// ending in `*` (the star dropped); nil for anything else (an object, a file, a bad URL).
    static func s3Prefix(_ input: String) -> S3Location? {
        guard S3Location.hasScheme(input) else { return nil }
        let starred = input.hasSuffix("*")
        guard let location = try? S3Location(parsing: starred ? String(input.dropLast()) : input), location.versionID == nil,
            starred || location.isPrefix
        else { return nil }
        return location
    }

    /// The images under `prefix` (their keys' extensions, as in folders), as s3 URLs; what
    /// `--shard` hashes is the key after the prefix. A listing that fails, or finds no image, is a problem.
    private static func expand(
        _ prefix: S3Location, input: String, lister: HTTPDataLoader?, into result: inout Result
    ) async {
        guard let lister else {
            result.problems.append((input, "cannot list: s3 inputs need S3 credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)", nil))
            return
        }
        do {
            let images = try await lister.listS3Objects(under: prefix).filter { object in
                let name = object.key.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
                guard let dot = name.lastIndex(of: "."), !object.key.hasSuffix("/") else { return false }
                return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
            }
            if images.isEmpty { result.problems.append((input, "no image under this prefix", input)) }
            result.files += images.map(\.description)
            result.shardKeys += images.map { String($0.key.dropFirst(prefix.key.count)) }
        } catch {
            result.problems.append((input, "cannot list: \(Console.reason(for: error))", nil))
        }
    }

    /// The images below `folder`, sorted by path, hidden files and folders left out.
    static func images(in folder: String) throws -> [String] {
        var found: [String] = []
        for relative in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            let components = relative.split(separator: "/")
            if components.contains(where: { $0.hasPrefix(".") }) { continue }
            let path = folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
            let ext = URL(fileURLWithPath: relative).pathExtension.lowercased()
            if imageExtensions.contains(ext), !Folder.exists(path) { found.append(path) }
        }
        return found.sorted()
    }

    /// The system's reason (`strerror`) why `folder` cannot be listed, nil when it can.
    static func folderReason(_ folder: String) -> String? {
        do throws(SystemError) {
            _ = try Folder.names(in: folder)
            return nil
        } catch {
            return error.reason
        }
    }

    /// Glibc `glob(3)`, sorted.
    static func glob(_ pattern: String) -> [String] {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard Glibc.glob(pattern, 0, nil, &matches) == 0 else { return [] }
        return (0..<Int(matches.gl_pathc)).compactMap { index in
            matches.gl_pathv[index].map { String(cString: $0) }
        }
    }
}
