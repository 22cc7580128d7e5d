import Foundation
import Testing
@testable import VignetteCodecs

/// PDF pages rendered through poppler (libvips' pdfload) at the resolution the box needs, against
/// poppler's own `pdftoppm` (poppler-utils) at the same resolution. The PDFs are made by cairo
/// (`rsvg-convert -f pdf`, librsvg2-bin).
@Suite("PDF sources: pages, resolution, pdftoppm, the opt-in")
struct PDFSourceTests {
    static let tools = ColourReference.tool("rsvg-convert") != nil && ColourReference.tool("pdftoppm") != nil
    static let ns = #"xmlns="http://www.w3.org/2000/svg""#
    static let pages = [
        #"<svg \#(ns) width="400" height="300"><rect width="400" height="300" fill="white"/><rect x="20" y="20" width="200" height="150" fill="seagreen"/><circle cx="300" cy="200" r="80" fill="firebrick"/></svg>"#,
        #"<svg \#(ns) width="200" height="280"><rect width="200" height="280" fill="ivory"/><text x="10" y="60" font-family="DejaVu Sans" font-size="40" fill="black">Page 2</text><path d="M10 100 L190 270" stroke="navy" stroke-width="8"/></svg>"#,
    ]

    /// A two-page PDF made by cairo from `pages`.
    static func document() async throws -> (url: URL, data: Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var inputs: [String] = []
        for (index, page) in pages.enumerated() {
            let url = folder.appendingPathComponent("page\(index).svg")
            try Data(page.utf8).write(to: url)
            inputs.append(url.path)
        }
        let pdf = try await ColourReference.run("rsvg-convert", ["-f", "pdf"] + inputs)
        let url = folder.appendingPathComponent("doc.pdf")
        try pdf.write(to: url)
        return (url, pdf)
    }

    /// pdftoppm's PNG of page `page` (0-based) at `dpi`, decoded.
    static func pdftoppm(_ url: URL, page: Int, dpi: Double) async throws -> Image {
        let png = try await ColourReference.run(
            "pdftoppm", ["-png", "-f", "\(page + 1)", "-l", "\(page + 1)", "-r", String(dpi), "-singlefile", url.path])
        return try ImageDecoder(limits: .unlimited).decode(png)
    }

    @Test("poppler is asked for where \"%PDF-\" starts within the first 1024 bytes, as PDF readers look for it, and only there")
    func sniffing() throws {
        let marker = Data("%PDF-1.7\n".utf8)
        #expect(ModuleSniffer.module(for: marker) == "poppler")
        #expect(ModuleSniffer.module(for: Data(repeating: 0x20, count: 1019) + marker) == "poppler")  // "%PDF-" ends at byte 1024
        #expect(ModuleSniffer.module(for: Data(repeating: 0x20, count: 1020) + marker) == nil)  // its "-" is byte 1025
        #expect(ModuleSniffer.module(for: Data("%PDF".utf8)) == nil)
        #expect(ModuleSniffer.module(for: Data("%PD%PDF-".utf8)) == "poppler")
        #expect(ModuleSniffer.module(for: Data()) == nil)
        #expect(ModuleSniffer.module(for: try TestFiles.data(TestFiles.fixture("baseline.jpg"))) == nil)
    }

    @Test("each page at several boxes: the box's size, within dHash 2 of pdftoppm at the resolution that size is", .enabled(if: tools))
    func matchesPdftoppm() async throws {
        let (url, data) = try await Self.document()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        for page in 0..<2 {
            var decoder = ImageDecoder()
            decoder.picture.page = page
            let info = try decoder.probe(data)
            #expect(info.format == .pdf && info.pages == 2)
            for side in [120, 480, 1200] {
                var options = ThumbnailOptions(width: side, height: side)
                options.page = page
                let made = try Thumbnailer(options: options).thumbnail(data).image
                #expect(max(made.width, made.height) == side, "page \(page) at \(side): \(made.width)x\(made.height)")
                // The resolution that size is: 72 dpi for the nominal size in points.
                let dpi = 72 * Double(side) / Double(max(info.width, info.height))
                let reference = try await Self.pdftoppm(url, page: page, dpi: dpi)
                let distance = try made.perceptualHash().distance(to: reference.perceptualHash())
                // poppler through libvips and pdftoppm anti-alias text edges apart: 3 at the smallest box.
                #expect(distance <= 3, "page \(page) at \(side) (\(dpi) dpi): dHash distance \(distance)")
                #expect(abs(reference.width - made.width) <= 1 && abs(reference.height - made.height) <= 1)
            }
        }
    }

    @Test("a page past the last is invalidArgument; a document refused by allowedInputs is unsupportedFormat with inputNotAllowed", .enabled(if: tools))
    func pagesAndOptIn() async throws {
        let (url, data) = try await Self.document()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        var options = ThumbnailOptions(width: 100, height: 100)
        options.page = 5
        do {
            _ = try Thumbnailer(options: options).thumbnail(data)
            Issue.record("page 5 of 2 was made")
        } catch {
            #expect(error.kind == .invalidArgument, "\(error.kind): \(error.message)")
        }
        var limits = DecodingLimits.untrusted
        limits.allowedInputs = []
        // Two plain do/catch blocks: an array of typed-throws closures here crashes Swift 6.3.1's
        // CapturePromotion pass.
        do {
            _ = try ImageDecoder(limits: limits).probe(data)
            Issue.record("a PDF was probed with PDF not allowed")
        } catch {
            #expect(error.kind == .unsupportedFormat && error.code == ImagingError.Code.inputNotAllowed(.pdf), "\(error.kind): \(error.message)")
        }
        do {
            _ = try Thumbnailer(options: ThumbnailOptions(size: 50), limits: limits).thumbnail(data)
            Issue.record("a PDF was made with PDF not allowed")
        } catch {
            #expect(error.kind == .unsupportedFormat && error.code == ImagingError.Code.inputNotAllowed(.pdf), "\(error.kind): \(error.message)")
        }
    }
}
