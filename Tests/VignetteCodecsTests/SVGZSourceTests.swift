import Foundation
import Testing
import VignetteCodecs

/// Gzip-compressed SVG (`.svgz`, compressed by `gzip` here): the SVG path once decompressed, and a
/// gzip bomb refused from its growth.
@Suite("SVGZ: gzip-compressed SVG through the SVG path; bombs refused within the budget")
struct SVGZSourceTests {
    static let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="40" height="30" fill="seagreen"/><circle cx="44" cy="30" r="14" fill="gold"/></svg>"#

    static func gzip(_ data: Data) async throws -> Data { try await ColourReference.run("gzip", ["-9", "-c"], input: data) }

    @Test("An svgz probes, thumbnails and passes through sanitised exactly as the SVG it holds",
          .enabled(if: ColourReference.tool("gzip") != nil, "gzip is not installed"))
    func sameAsSVG() async throws {
        let plain = Data(Self.svg.utf8)
        let compressed = try await Self.gzip(plain)
        #expect(compressed.prefix(2) == Data([0x1F, 0x8B]))
        let info = try ImageDecoder().probe(compressed)
        #expect(info.format == .svg && info.width == 64 && info.height == 48)
        let thumbnailer = Thumbnailer(options: ThumbnailOptions(width: 32, height: 32))
        let fromSVGZ = try thumbnailer.thumbnail(compressed).image.pixels()
        let fromSVG = try thumbnailer.thumbnail(plain).image.pixels()
        #expect(fromSVGZ == fromSVG)
        #expect(try SVGDocument.sanitized(compressed).data == SVGDocument.sanitized(plain).data)
    }

    @Test("A gzip bomb (200 MB of SVG in a few hundred KB) is refused as over the limit, also when its trailer lies about its size",
          .enabled(if: ColourReference.tool("gzip") != nil, "gzip is not installed"))
    func bomb() async throws {
        var document = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#.utf8)
        document.append(Data(repeating: UInt8(ascii: " "), count: 200 << 20))
        document.append(Data("</svg>".utf8))
        let bomb = try await Self.gzip(document)
        #expect(bomb.count < 1 << 20)
        var lying = bomb
        // ISIZE, the trailer's claim, made small: the growth refuses it all the same.
        lying.replaceSubrange((lying.count - 4)..<lying.count, with: [0x00, 0x10, 0, 0])
        for data in [bomb, lying] {
            for path in ["probe", "thumbnail"] {
                let error = expectImagingError(Comment(rawValue: path)) { () throws(ImagingError) in
                    if path == "probe" { _ = try ImageDecoder().probe(data) } else {
                        _ = try Thumbnailer(options: ThumbnailOptions(width: 32, height: 32)).thumbnail(data)
                    }
                }
                #expect(error?.kind == .limitExceeded, "\(String(describing: error))")
                #expect(error?.message.contains("compressed SVG") == true, "\(String(describing: error))")
            }
        }
    }

    @Test("Gzip of something else is not an image; a broken gzip stream is corrupt data",
          .enabled(if: ColourReference.tool("gzip") != nil, "gzip is not installed"))
    func notSVG() async throws {
        let png = try await Self.gzip(Data(contentsOf: TestFiles.fixture("rgb8.png")))
        let error = expectImagingError { () throws(ImagingError) in try ImageDecoder().probe(png) }
        #expect(error?.kind == .unsupportedFormat)
        var broken = try await Self.gzip(Data(Self.svg.utf8))
        broken.replaceSubrange(12..<20, with: [UInt8](repeating: 0xFF, count: 8))
        let corrupt = expectImagingError { () throws(ImagingError) in try ImageDecoder().probe(broken) }
        #expect(corrupt?.kind == .corruptData, "\(String(describing: corrupt))")
    }
}
