import Foundation
import Testing
import Vignette

/// imgproxy's `/info` through `ImagePipeline.info`, each option against an independent reader.
@Suite("/info: every option against ExifTool, sha256sum, vipsheader, Pillow/NumPy and the placeholder decoders")
struct InfoTests {
    /// Every EXIF tag /info reports that ExifTool (`-j -n -EXIF:all`) reports under the same name
    /// has ExifTool's value, and `required` are among them.
    func expectEXIFMatches(_ path: String, required: [String]) async throws {
        let info = try await InfoReferences.info(path, "exif:1")
        let ours = try #require(info["exif"] as? [String: Any])
        let theirs = try await InfoReferences.exifTool(path, "EXIF:all")
        var compared = 0
        for (name, value) in ours where name != "MakerNote" {
            guard let reference = theirs[name] else { continue }
            #expect(InfoReferences.same(value, reference), "\(path): \(name) is \(value), ExifTool says \(reference)")
            compared += 1
        }
        for name in required { #expect(ours[name] != nil && theirs[name] != nil, "\(path): \(name) missing") }
        #expect(compared >= required.count)
    }

    @Test("EXIF of a camera JPEG (Canon, corpus) equals ExifTool's, tag by tag")
    func exifCamera() async throws {
        guard let path = InfoReferences.corpusFile("Landscape_9.jpg") else { return }
        try await expectEXIFMatches(path, required: ["Make", "Model", "ExposureTime", "FNumber", "ISO", "FocalLength", "ShutterSpeedValue", "ApertureValue", "ExposureCompensation", "DateTimeOriginal"])
    }

    @Test("EXIF with GPS and maker notes, in both byte orders, equals ExifTool's; the maker notes do not derail the tags after them", arguments: [true, false])
    func exifGPSAndMakerNotes(littleEndian: Bool) async throws {
        try await InfoReferences.inFolder { folder in
            let w = TIFFBlockWriter(littleEndian: littleEndian)
            // A maker note that looks like an IFD with offsets pointing anywhere.
            let makerNote: [UInt8] = [0x00, 0x03] + (0..<94).map { UInt8(($0 * 37) & 0xFF) }
            let block = w.block(
                main: [w.ascii(0x010F, "Canon"), w.ascii(0x0110, "Vignette Test"), w.short(0x0112, 6), w.rationals(0x011A, [(300, 1)])],
                exif: [
                    w.rationals(0x829A, [(1, 250)]), w.rationals(0x829D, [(28, 10)]), w.short(0x8827, 400),
                    w.ascii(0x9003, "2024:05:06 07:08:09"), w.rationals(0x9204, [(UInt32(bitPattern: -2), 3)], signed: true),
                    w.undefined(0x927C, makerNote), w.long(0xA002, 640), w.long(0xA003, 480), w.ascii(0xA434, "EF85mm f/1.2L"),
                ],
                gps: [
                    w.byte(0x0000, [2, 3, 0, 0]), w.ascii(0x0001, "S"), w.rationals(0x0002, [(33, 1), (51, 1), (5412, 100)]),
                    w.ascii(0x0003, "E"), w.rationals(0x0004, [(151, 1), (12, 1), (3348, 100)]), w.byte(0x0005, [0]),
                    w.rationals(0x0006, [(355, 10)]), w.rationals(0x0007, [(10, 1), (20, 1), (30, 1)]), w.ascii(0x001D, "2024:05:06"),
                ])
            let jpeg = TIFFBlockWriter.inserting(block, into: try Data(contentsOf: URL(fileURLWithPath: Files.fixture("baseline.jpg"))))
            let path = folder + "/gps.jpg"
            try jpeg.write(to: URL(fileURLWithPath: path))
            try await expectEXIFMatches(path, required: [
                "Make", "Model", "Orientation", "ExposureTime", "FNumber", "ISO", "ExposureCompensation", "ExifImageWidth",
                "ExifImageHeight", "LensModel", "GPSLatitudeRef", "GPSLatitude", "GPSLongitudeRef", "GPSLongitude", "GPSAltitude",
                "GPSAltitudeRef", "GPSDateStamp",
            ])
            let exif = try #require(try await InfoReferences.info(path, "exif:1")["exif"] as? [String: Any])
            #expect(exif["MakerNote"] as? String == "(Binary data 96 bytes)")
            #expect(abs((exif["GPSLatitude"] as? Double ?? 0) - (33 + 51.0 / 60 + 54.12 / 3600)) < 1e-9)
        }
    }

    @Test("IPTC datasets written by ExifTool read back under imgproxy's names; repeatable ones as arrays")
    func iptc() async throws {
        try await InfoReferences.inFolder { folder in
            let path = folder + "/iptc.jpg"
            _ = try await InfoReferences.run("exiftool", [
                "-q", "-o", path, "-IPTC:ObjectName=Spider-Man", "-IPTC:Caption-Abstract=Spider-Man swings on the web",
                "-IPTC:CopyrightNotice=Daily Bugle", "-IPTC:Keywords=spider-man", "-IPTC:Keywords=menace", "-IPTC:Keywords=offender",
                "-IPTC:By-line=Peter Parker", "-IPTC:City=New York", "-IPTC:CodedCharacterSet=UTF8", "-IPTC:Headline=Café über",
                Files.fixture("baseline.jpg"),
            ])
            let iptc = try #require(try await InfoReferences.info(path, "iptc:1")["iptc"] as? [String: Any])
            let theirs = try await InfoReferences.exifTool(path, "IPTC:all")
            let names = [
                "Name": "ObjectName", "Caption": "Caption-Abstract", "Copyright Notice": "CopyrightNotice", "Keywords": "Keywords",
                "By-line": "By-line", "City": "City", "Headline": "Headline",
            ]
            for (ours, exiftool) in names {
                let reference = try #require(theirs[exiftool], "ExifTool has no \(exiftool)")
                let value = try #require(iptc[ours], "/info has no \(ours)")
                if let list = value as? [String] {
                    let expected = (reference as? [Any])?.map { "\($0)" } ?? ["\(reference)"]
                    #expect(list == expected, "\(ours)")
                } else {
                    #expect("\(value)" == "\(reference)", "\(ours): \(value) vs \(reference)")
                }
            }
            #expect(iptc["Headline"] as? String == "Café über")
        }
    }

    @Test("Photoshop resolution and IPTC dates of the corpus' Lightroom JPEG")
    func photoshopResolution() async throws {
        guard let path = InfoReferences.corpusFile("Landscape_9.jpg") else { return }
        let info = try await InfoReferences.info(path, "iptc:1")
        let resolution = try #require((info["photoshop"] as? [String: Any])?["resolution"] as? [String: Any])
        let theirs = try await InfoReferences.exifTool(path, "Photoshop:all")
        #expect(InfoReferences.same(resolution["XResolution"] ?? 0, theirs["XResolution"] ?? -1))
        #expect(InfoReferences.same(resolution["YResolution"] ?? 0, theirs["YResolution"] ?? -1))
        let iptc = try #require(info["iptc"] as? [String: Any])
        let dates = try await InfoReferences.exifTool(path, "IPTC:DateCreated")
        #expect("\(dates["DateCreated"] ?? "")".replacingOccurrences(of: ":", with: "") == iptc["Date Created"] as? String)
    }

    @Test("XMP: properties by prefix, bags and sequences as arrays, alternatives as their default, equal to ExifTool's")
    func xmp() async throws {
        try await InfoReferences.inFolder { folder in
            let path = folder + "/xmp.jpg"
            _ = try await InfoReferences.run("exiftool", [
                "-q", "-o", path, "-XMP-dc:Creator=Peter B. Parker", "-XMP-dc:Subject=spider-man", "-XMP-dc:Subject=menace",
                "-XMP-dc:Title=The <web> & more", "-XMP-dc:Publisher=Daily Bugle", "-XMP-photoshop:City=New York",
                "-XMP-aux:Lens=16.0-35.0 mm f/4.0", "-XMP-aux:SerialNumber=12345678", "-XMP-xmp:Rating=3", Files.fixture("baseline.jpg"),
            ])
            let xmp = try #require(try await InfoReferences.info(path, "xmp:1")["xmp"] as? [String: [String: Any]])
            let theirs = try await InfoReferences.exifTool(path, "XMP:all", groupNames: true)
            var compared = 0
            for (key, value) in theirs where key.hasPrefix("XMP-") && !key.hasPrefix("XMP-x:") {
                let parts = key.dropFirst(4).split(separator: ":")
                let (prefix, name) = (String(parts[0]), String(parts[1]))
                let group = try #require(xmp[prefix], "no \(prefix) in \(xmp.keys)")
                let ours = try #require(group.first { $0.key.lowercased() == name.lowercased() }?.value, "no \(prefix):\(name)")
                if let list = ours as? [String] {
                    #expect(list == ((value as? [Any])?.map { "\($0)" } ?? ["\(value)"]), "\(key)")
                } else {
                    #expect(InfoReferences.same(ours, value), "\(key): \(ours) vs \(value)")
                }
                compared += 1
            }
            #expect(compared == 8)
            #expect((xmp["dc"]?["title"] as? String) == "The <web> & more")
        }
    }

    @Test("hashsums of the source's bytes equal md5sum, sha1sum, sha256sum and sha512sum", arguments: ["baseline.jpg", "alpha.png", "animated.gif"])
    func hashsums(name: String) async throws {
        let path = Files.fixture(name)
        let info = try await InfoReferences.info(path, "chs:md5:sha1:sha256:sha512")
        let sums = try #require(info["hashsums"] as? [String: String])
        for kind in ["md5", "sha1", "sha256", "sha512"] {
            let reference = try await InfoReferences.run("\(kind)sum", [path]).split(separator: " ").first.map(String.init)
            #expect(sums[kind] == reference, "\(kind)")
        }
        #expect(info["size"] as? Int == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
    }

    @Test("header facts (format, size, colour space, bands, sample format, pages, alpha) equal vipsheader's for CMYK, 16-bit, alpha, grey, animation and HEIC",
          arguments: ["cmyk.jpg", "rgb16.png", "alpha.png", "grey-alpha.png", "animated.gif", "animated.webp", "thumbnail.heic", "avif.avif", "baseline.jpg"])
    func header(name: String) async throws {
        let path = Files.fixture(name)
        let info = try await InfoReferences.info(path, "exif:0/iptc:0/xmp:0/cs:1/bands:1/sf:1/pn:1/a:1")
        // Every header field vipsheader prints, `name: value` a line (n-pages only when there are pages).
        var fields: [String: String] = [:]
        for line in try await InfoReferences.run("vipsheader", ["-a", path]).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        func field(_ name: String) -> String { fields[name] ?? "" }
        #expect(info["width"] as? Int == Int(field("width")))
        #expect(info["height"] as? Int == Int(field("height")))
        #expect(info["bands"] as? Int == Int(field("bands")))
        #expect(info["pages_number"] as? Int == Int(field("n-pages")) ?? 1)
        // vipsheader prints the enum's nickname (or its C name on some versions).
        let interpretation = field("interpretation").lowercased()
        #expect(interpretation.contains((info["colorspace"] as? String ?? "?").replacingOccurrences(of: "-", with: "_")) || interpretation == info["colorspace"] as? String)
        #expect(field("format").lowercased().contains(info["sample_format"] as? String ?? "?"))
        let bands = info["bands"] as? Int ?? 0
        #expect(info["alpha"] as? Bool == (bands == 2 || bands == 4 && info["colorspace"] as? String != "cmyk" || bands == 5))
        let format = try #require(info["format"] as? String)
        let mime = try await InfoReferences.exifTool(path, "MIMEType")["MIMEType"] as? String ?? ""
        #expect(mime.hasSuffix(format) || (format == "heic" && mime == "image/heic") || (format == "jpeg" && mime == "image/jpeg"), "\(format) vs \(mime)")
    }

    @Test("a CMYK JPEG's header reads cmyk with four bands; pixel facts come in sRGB")
    func cmyk() async throws {
        let info = try await InfoReferences.info(Files.fixture("cmyk.jpg"), "cs:1/bands:1/avg:1")
        #expect(info["colorspace"] as? String == "cmyk" && info["bands"] as? Int == 4)
        #expect((info["average"] as? [String: Int])?["A"] == 255)
    }
}
