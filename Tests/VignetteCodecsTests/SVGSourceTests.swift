import Foundation
import Testing
import VignetteCodecs

/// SVG sources rendered at the size of the box (libvips' svgload `scale`), against librsvg's own
/// `rsvg-convert` (librsvg2-bin) rendering the same file directly at that size.
@Suite("SVG sources: sizes, pixels against rsvg-convert, sharpness, sanitised output")
struct SVGSourceTests {
    static let ns = #"xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#

    /// The documents: viewBox only, width/height only, both, percentages, nested transforms, text.
    static let documents: [(name: String, svg: String)] = [
        ("viewbox", #"<svg \#(ns) viewBox="0 0 40 30"><rect x="2" y="2" width="36" height="26" fill="seagreen"/><circle cx="14" cy="15" r="9" fill="gold"/></svg>"#),
        ("size", #"<svg \#(ns) width="64" height="48"><path d="M4 44 L32 4 L60 44 Z" fill="firebrick"/><rect x="40" y="30" width="20" height="14" fill="midnightblue"/></svg>"#),
        ("both", #"<svg \#(ns) width="120" height="60" viewBox="0 0 60 30"><rect width="30" height="30" fill="darkmagenta"/><rect x="30" width="30" height="15" fill="darkcyan"/></svg>"#),
        ("percent", #"<svg \#(ns) width="100%" height="100%" viewBox="0 0 20 10"><ellipse cx="7" cy="5" rx="6" ry="4" fill="navy"/><rect x="14" y="1" width="5" height="8" fill="orange"/></svg>"#),
        ("transforms", #"<svg \#(ns) width="50" height="50"><g transform="translate(25 25)"><g transform="rotate(30) scale(1.5)"><g transform="skewX(10)"><rect x="-8" y="-8" width="16" height="16" fill="purple"/></g></g></g><circle cx="8" cy="8" r="5" fill="green"/></svg>"#),
        ("text", #"<svg \#(ns) width="160" height="48"><rect width="160" height="48" fill="white"/><text x="6" y="36" font-family="DejaVu Sans" font-size="32" fill="black">Vignette</text></svg>"#),
    ]

    static let boxes = [PixelSize(width: 64, height: 64), PixelSize(width: 300, height: 120), PixelSize(width: 700, height: 700)]

    static func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-svg-\(UUID().uuidString).svg")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// rsvg-convert's PNG of `file` at `size` (or its nominal size), decoded.
    static func reference(_ file: URL, _ size: PixelSize? = nil) async throws -> Image {
        let sized = size.map { ["-w", "\($0.width)", "-h", "\($0.height)"] } ?? []
        let png = try await ColourReference.run("rsvg-convert", sized + [file.path])
        return try ImageDecoder(limits: .unlimited).decode(png)
    }

    @Test("each document at each box: the fit-inside size of librsvg's nominal size, within dHash 2 of rsvg-convert at that size",
          .enabled(if: ColourReference.tool("rsvg-convert") != nil, "rsvg-convert (librsvg2-bin) is not installed"),
          arguments: documents.map(\.name))
    func matchesRsvgConvert(name: String) async throws {
        let svg = try #require(Self.documents.first { $0.name == name }?.svg)
        let file = try Self.file(svg)
        defer { try? FileManager.default.removeItem(at: file) }
        let data = try Data(contentsOf: file)
        // The nominal size is librsvg's: what rsvg-convert renders with no size given.
        let nominal = try await Self.reference(file)
        let info = try ImageDecoder().probe(data)
        #expect(info.format == .svg)
        #expect(info.width == nominal.width && info.height == nominal.height, "\(name): \(info.width)x\(info.height) vs \(nominal.width)x\(nominal.height)")
        for box in Self.boxes {
            let scale = min(Double(box.width) / Double(info.width), Double(box.height) / Double(info.height))
            let expected = PixelSize(
                width: max(1, Int((Double(info.width) * scale).rounded())), height: max(1, Int((Double(info.height) * scale).rounded())))
            let thumbnail = try Thumbnailer(options: ThumbnailOptions(width: box.width, height: box.height)).thumbnail(data)
            #expect(thumbnail.image.width == expected.width && thumbnail.image.height == expected.height, "\(name) in \(box)")
            let direct = try await Self.reference(file, expected)
            let distance = try thumbnail.image.perceptualHash().distance(to: direct.perceptualHash())
            #expect(distance <= 2, "\(name) in \(box): dHash distance \(distance)")
        }
    }

    @Test("a 10-pixel SVG asked at 1000 is drawn at 1000: its pixels are rsvg-convert's at 1000, not a 10-pixel render enlarged",
          .enabled(if: ColourReference.tool("rsvg-convert") != nil, "rsvg-convert (librsvg2-bin) is not installed"))
    func vectorEnlargementIsSharp() async throws {
        let file = try Self.file(#"<svg \#(Self.ns) width="10" height="10"><rect width="10" height="10" fill="white"/><circle cx="5" cy="5" r="3.5" fill="black"/><path d="M0 0 L10 10" stroke="red" stroke-width="0.5"/></svg>"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let data = try Data(contentsOf: file)
        let made = try Thumbnailer(options: ThumbnailOptions(width: 1000, height: 1000)).thumbnail(data).image
        #expect(made.width == 1000 && made.height == 1000)
        let direct = try await Self.reference(file, PixelSize(width: 1000, height: 1000))
        let enlarged = try ImageDecoder().decode(data).resized(toWidth: 1000, height: 1000)
        let reference = try direct.flattened()
        let drawnDifference = try made.flattened().meanDifference(to: reference)
        let enlargedDifference = try enlarged.flattened().meanDifference(to: reference)
        let drawn = try #require(drawnDifference), blurred = try #require(enlargedDifference)
        #expect(drawn < 1.0, "mean difference to the direct render: \(drawn)")
        #expect(blurred > 4 * max(drawn, 0.25), "an enlarged 10-pixel render differs by \(blurred), the drawn one by \(drawn)")
    }

    @Test("a full decode draws the nominal size; a 100000×100000 nominal size is refused whole and drawn small as a thumbnail")
    func nominalSizeAndBudget() throws {
        let huge = Data(#"<svg \#(Self.ns) width="100000" height="100000" viewBox="0 0 10 10"><rect width="10" height="10" fill="red"/></svg>"#.utf8)
        #expect(throws: ImagingError.self) { try ImageDecoder().decode(huge) }
        do {
            _ = try ImageDecoder().decode(huge)
        } catch {
            #expect(error.kind == .limitExceeded)
        }
        let thumbnail = try Thumbnailer(options: ThumbnailOptions(width: 100, height: 100)).thumbnail(huge)
        #expect(thumbnail.image.width == 100 && thumbnail.image.height == 100)
        let small = try ImageDecoder().decode(Data(Self.documents[1].svg.utf8))
        #expect(small.width == 64 && small.height == 48)
    }

    @Test("SVGDocument.sanitized keeps the drawing and drops scripts, handlers, remote references and DOCTYPEs; entities are expanded")
    func sanitisedDocument() throws {
        let svg = """
            <?xml version="1.0"?>
            <!DOCTYPE svg [ <!ENTITY fill "teal"> ]>
            <svg \(Self.ns) width="20" height="20" onload="alert(1)"><script>alert(2)</script>\
            <rect width="20" height="20" fill="&fill;" style="stroke: url(http://example.com/x.svg#a)"/>\
            <use xlink:href="http://example.com/r.svg#a"/><use xlink:href="#keep"/>\
            <style>@import url(http://example.com/a.css); rect { fill: url(#keep) }</style></svg>
            """
        let (clean, size) = try SVGDocument.sanitized(Data(svg.utf8))
        let text = String(decoding: clean, as: UTF8.self)
        #expect(size == PixelSize(width: 20, height: 20))
        for gone in ["script", "alert", "onload", "example.com", "@import", "DOCTYPE", "ENTITY"] {
            #expect(!text.contains(gone), "\(gone) is still in \(text)")
        }
        for kept in [##"fill="teal""##, ##"xlink:href="#keep""##, "url(#keep)", "stroke: none"] {
            #expect(text.contains(kept), "\(kept) is missing from \(text)")
        }
        #expect(throws: ImagingError.self) { try SVGDocument.sanitized(Fixtures.jpeg) }
    }
}

private enum Fixtures {
    static var jpeg: Data { (try? TestFiles.data(TestFiles.fixture("baseline.jpg"))) ?? Data([0xFF, 0xD8, 0xFF]) }
}
