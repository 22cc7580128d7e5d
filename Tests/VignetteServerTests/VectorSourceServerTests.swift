import Foundation
import Testing
import Vignette
import VignetteCodecs

/// SVG and PDF sources through the server: SVG always (sanitised), PDF only with `allowedInputs`
/// (`--allow-pdf`), through the same caches as every image.
@Suite("Server: SVG and PDF sources")
struct VectorSourceServerTests {
    static let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="teal"/><script>alert(1)</script></svg>"#

    /// A folder holding `logo.svg` and `doc.pdf` (the SVG as a PDF, by cairo through rsvg-convert).
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-vector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let svgFile = folder.appendingPathComponent("logo.svg")
        try Data(svg.utf8).write(to: svgFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/rsvg-convert")
        process.arguments = ["-f", "pdf", "-o", folder.appendingPathComponent("doc.pdf").path, svgFile.path]
        try process.run()
        process.waitUntilExit()
        return folder
    }

    @Test("PDF is 415 with a one-line reason unless allowed; allowed, a page at the box's size, a second request from the cache; SVG drawn at the box and f:svg sanitised",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert"), "rsvg-convert (librsvg2-bin) is not installed"))
    func vectorSources() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await RunningServer.with({ $0.localRoot = folder.path }) { running in
            let refused = try await running.get("/insecure/rs:fit:200:200/plain/local:///doc.pdf@png")
            #expect(refused.status == 415)
            #expect(refused.text.trimmingCharacters(in: .whitespacesAndNewlines) == "PDF sources are not allowed on this server")
            let drawn = try await running.get("/insecure/rs:fit:200:200/plain/local:///logo.svg@png")
            #expect(drawn.status == 200)
            let info = try ImageDecoder().probe(drawn.body)
            #expect(info.width == 200 && info.height == 150)
            let source = try await running.get("/insecure/rs:fit:200:200/plain/local:///logo.svg@svg")
            #expect(source.status == 200 && source.header("Content-Type") == "image/svg+xml")
            #expect(source.text.contains("teal") && !source.text.contains("script"))
        }
        try await RunningServer.with({ $0.localRoot = folder.path; $0.allowedInputs = [.pdf] }) { running in
            let first = try await running.get("/insecure/rs:fit:300:300/pg:0/plain/local:///doc.pdf@png")
            #expect(first.status == 200, "\(first.text)")
            let info = try ImageDecoder().probe(first.body)
            // rsvg-convert writes the 40×30-px SVG as a 30×22-point page (22.5 rounded down by cairo).
            #expect(info.width == 300 && info.height == 220, "\(info.width)x\(info.height)")
            let again = try await running.get("/insecure/rs:fit:300:300/pg:0/plain/local:///doc.pdf@png")
            #expect(again.status == 200 && again.body == first.body && again.header("ETag") == first.header("ETag"))
            let pastTheEnd = try await running.get("/insecure/rs:fit:300:300/pg:3/plain/local:///doc.pdf@png")
            #expect(pastTheEnd.status == 400, "\(pastTheEnd.status): \(pastTheEnd.text)")
        }
    }
}
