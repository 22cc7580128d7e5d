import Foundation
import Testing
import VignetteCodecs

/// ICO and CUR sources (Fixtures/icons, made by ImageMagick and Pillow): the entry a result needs,
/// PNG entries through libvips, bitmap entries through Vignette's BMP decoder, compared with Pillow.
@Suite("ICO: the entry the box needs, PNG and bitmap entries, cursors, hostile directories")
struct ICOSourceTests {
    static func data(_ name: String) throws -> Data { try Data(contentsOf: BitmapReference.icons.appendingPathComponent(name)) }

    @Test("A probe and a decode read the largest entry; a thumbnail reads the smallest entry it need not enlarge, else the largest",
          arguments: [
            ("favicon-im.ico", 256, [(10, 16), (16, 16), (17, 32), (40, 48), (100, 256), (600, 256)]),
            ("cursor.cur", 256, [(16, 16), (30, 32)]),
            ("pillow.ico", 128, [(16, 16), (20, 32), (64, 64), (200, 128)]),
            ("pillow-bmp.ico", 128, [(16, 16), (33, 48)]),
            ("opaque-im.ico", 64, [(16, 16), (20, 32)]),
          ])
    func entries(file: String, largest: Int, boxes: [(Int, Int)]) throws {
        let data = try Self.data(file)
        let info = try ImageDecoder().probe(data)
        #expect(info.format == .ico && info.width == largest && info.pages == 1)
        #expect(try ImageDecoder().decode(data).width == largest)
        for (box, entry) in boxes {
            let thumbnail = try Thumbnailer(options: ThumbnailOptions(width: box, height: box)).thumbnail(data)
            #expect(thumbnail.source.width == entry, "\(file) for a box of \(box)")
            #expect(thumbnail.source.format == .ico)
            #expect(max(thumbnail.image.width, thumbnail.image.height) == min(box, entry), "\(file) for a box of \(box)")
        }
    }

    @Test("Bitmap entries: alpha from 32-bit pixels, or from the AND mask under 4- and 8-bit palettes; colours as Pillow decodes them",
          .pillow)
    func matchesPillow() async throws {
        let cases: [(file: String, size: PixelSize)] = [
            ("favicon-im.ico", PixelSize(width: 32, height: 32)), ("favicon-im.ico", PixelSize(width: 256, height: 256)),
            ("pillow-bmp.ico", PixelSize(width: 64, height: 48)), ("pillow.ico", PixelSize(width: 32, height: 24)),
            ("palette4-im.ico", PixelSize(width: 32, height: 24)), ("palette8-im.ico", PixelSize(width: 40, height: 30)),
            ("opaque-im.ico", PixelSize(width: 64, height: 64)),
        ]
        let references = try await BitmapReference.pillow(cases.map {
            BitmapReference.icons.appendingPathComponent($0.file).path + "@\($0.size.width)x\($0.size.height)"
        })
        for (file, size) in cases {
            let key = BitmapReference.icons.appendingPathComponent(file).path + "@\(size.width)x\(size.height)"
            let reference = try #require(references[key] ?? nil, "Pillow read no \(size) entry of \(file)")
            // A box of the entry's own size reads that entry, and makes it unchanged.
            let thumbnail = try Thumbnailer(options: ThumbnailOptions(width: size.width, height: size.height)).thumbnail(Self.data(file))
            #expect(thumbnail.source.width == size.width && thumbnail.source.height == size.height)
            #expect(thumbnail.image.bands == 4, "\(file): an icon keeps its alpha")
            let result = try #require(try BitmapReference.compare(thumbnail.image, reference), "\(file): size differs")
            #expect(result.colour <= 1 && result.alphaAgrees, "\(file) \(size): colour off by \(result.colour), alpha agrees: \(result.alphaAgrees)")
        }
    }

    /// An icon directory of `entries` (offset, length) over `payload` placed after it.
    static func icon(entries: [(offset: Int, length: Int)], fileLength: Int) -> Data {
        var bytes: [UInt8] = [0, 0, 1, 0, UInt8(entries.count), 0]
        for entry in entries {
            bytes += [16, 16, 0, 0, 1, 0, 32, 0]
            bytes += withUnsafeBytes(of: UInt32(entry.length).littleEndian, Array.init)
            bytes += withUnsafeBytes(of: UInt32(entry.offset).littleEndian, Array.init)
        }
        // A 16×16 32-bit DIB header (height doubled for the AND mask) at every place an entry may point.
        var dib: [UInt8] = withUnsafeBytes(of: UInt32(40).littleEndian, Array.init)
        dib += withUnsafeBytes(of: Int32(16).littleEndian, Array.init) + withUnsafeBytes(of: Int32(32).littleEndian, Array.init)
        dib += [1, 0, 32, 0] + [UInt8](repeating: 0, count: 24)
        while bytes.count < fileLength { bytes += dib }
        return Data(bytes.prefix(fileLength))
    }

    @Test("Entries that overlap, point outside the file or into the directory, and a directory past the end: corrupt data naming them")
    func hostileDirectories() throws {
        let cases: [(Data, String)] = [
            (Self.icon(entries: [(38, 1128), (600, 1128)], fileLength: 2000), "overlap"),
            (Self.icon(entries: [(22, 1128)], fileLength: 500), "outside"),
            (Self.icon(entries: [(38, 100), (4000, 100)], fileLength: 2000), "outside"),
            (Self.icon(entries: [(10, 100)], fileLength: 2000), "into the directory"),
            (Data([0, 0, 1, 0, 200, 0] + [UInt8](repeating: 0, count: 16) + [0, 0]), "past the end"),
        ]
        for (data, words) in cases {
            for path in ["decode", "thumbnail"] {
                let error = expectImagingError(Comment(rawValue: words)) { () throws(ImagingError) in
                    if path == "decode" { _ = try ImageDecoder().decode(data) } else {
                        _ = try Thumbnailer(options: ThumbnailOptions(width: 16, height: 16)).thumbnail(data)
                    }
                }
                #expect(error?.kind == .corruptData, "\(words): \(String(describing: error))")
                #expect(error?.message.contains(words) == true && error?.message.contains("ICO") == true, "\(String(describing: error))")
            }
        }
    }
}
