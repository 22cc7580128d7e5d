import ChildProcess
import Foundation
import Testing
import Vignette
import VignetteImgproxy

/// The independent readers `/info`'s tests compare with: ExifTool, the coreutils digests, libvips'
/// `vipsheader`, and Pillow/NumPy in .venv-test.
enum InfoReferences {
    static let corpus = Files.repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// A corpus file's path, nil when the corpus is not there (the test is then skipped).
    static func corpusFile(_ name: String) -> String? {
        let path = corpus.appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    static var python: String? {
        let venv = Files.repository.appendingPathComponent(".venv-test/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// Runs `tool` (an absolute path or a name on /usr/bin) and returns its standard output.
    static func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let path = tool.hasPrefix("/") ? tool : "/usr/bin/\(tool)"
        try #require(FileManager.default.isExecutableFile(atPath: path), "\(tool) is missing: make test installs it")
        let process = try ChildProcess(path, arguments)
        let result = await process.result(killAfter: .seconds(120))
        try #require(result.termination == .exited(0), "\(tool) \(arguments.joined(separator: " ")): \(result.standardError)")
        return String(decoding: result.output, as: UTF8.self)
    }

    /// ExifTool's `-j -n` object for `file`, restricted to `group` (e.g. "EXIF:all"), without group names.
    static func exifTool(_ file: String, _ group: String, groupNames: Bool = false) async throws -> [String: Any] {
        var arguments = ["-j", "-n"]
        if groupNames { arguments.append("-G1") }
        arguments += ["-" + group, file]
        let text = try await run("exiftool", arguments)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        return try #require(array.first)
    }

    /// `pipeline.info` of the file at `path` with `options` ('/'-separated imgproxy info options), as an object.
    static func info(_ path: String, _ options: String, pipeline: ImagePipeline = ImagePipeline()) async throws -> [String: Any] {
        var parsed = ImageInfoOptions()
        var delivery = ImgproxyOptions.Delivery()
        for segment in options.split(separator: "/") { try parsed.apply(segment, delivery: &delivery) }
        let request = try parsed.recipe.request(for: .file(path))
        let text = try await pipeline.info(for: request, options: parsed)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Whether an /info value equals ExifTool's `-n` value: numbers within 1e-6 (relative), a list
    /// against ExifTool's space-separated text, text as text (ExifTool prints numeric text as a number).
    static func same(_ ours: Any, _ theirs: Any) -> Bool {
        func number(_ value: Any) -> Double? {
            if let value = value as? NSNumber { return value.doubleValue }
            if let value = value as? String { return Double(value.trimmingCharacters(in: .whitespaces)) }
            return nil
        }
        if let list = ours as? [Any] {
            let words = "\(theirs)".split(separator: " ").map(String.init)
            return words.count == list.count && zip(list, words).allSatisfy { same($0.0, $0.1) }
        }
        if let a = number(ours), let b = number(theirs) { return abs(a - b) <= 1e-6 * max(1, abs(b)) }
        return "\(ours)".trimmingCharacters(in: .whitespaces) == "\(theirs)".trimmingCharacters(in: .whitespaces)
    }

    /// A scratch folder, removed after `body`.
    static func inFolder<R>(_ body: (String) async throws -> R) async throws -> R {
        let folder = try Files.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try await body(folder)
    }
}
