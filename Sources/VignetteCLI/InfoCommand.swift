import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette

/// `vignette info FILE|URL...`: one JSON object a line, header only.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print each file's (or URL's) header (format, size, bands, alpha, orientation, pages, embedded thumbnail) as one JSON line.")

    @Argument(help: "Image files or http(s) URLs.")
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one file") }
    }

    func run() throws {
        let decoder = ImageDecoder()
        let remote = files.contains(where: RemoteInputs.isURL) ? try RemoteInputs(folder: nil, limits: decoder.limits) : nil
        defer { remote?.finish() }
        var failed = false
        for (position, file) in files.enumerated() {
            remote?.prefetch(after: position, of: files)
            do {
                let info: ImageInfo
                if let remote, RemoteInputs.isURL(file) {
                    info = try decoder.probe(remote.data(at: file))
                } else {
                    info = try decoder.probe(fileAt: file)
                }
                print(InfoLine.json(file: file, info: info))
            } catch {
                Console.failed(file, error)
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}

/// The JSON object `vignette info` prints for one file, keys in the contract's order.
enum InfoLine {
    static func json(file: String, info: ImageInfo) -> String {
        let thumbnail: JSONValue = info.embeddedThumbnail.map {
            .object([("width", .int($0.width)), ("height", .int($0.height))])
        } ?? .null
        return JSONValue.object([
            ("file", .string(file)),
            ("format", .string(info.format.rawValue)),
            ("width", .int(info.width)),
            ("height", .int(info.height)),
            ("bands", .int(info.bands)),
            ("hasAlpha", .bool(info.hasAlpha)),
            ("orientation", .int(info.orientation)),
            ("pages", .int(info.pages)),
            ("embeddedThumbnail", thumbnail),
        ]).text
    }
}
