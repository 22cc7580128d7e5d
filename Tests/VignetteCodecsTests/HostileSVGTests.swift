import Foundation
import Testing
import VignetteCodecs

#if canImport(Glibc)
import Glibc
#endif

/// Hostile SVG documents through every library door (probe, decode, thumbnail, the sanitised
/// output): each is a typed error or a safe render; none reaches a listener on loopback or a file
/// outside the document.
@Suite("Hostile SVG: no network, no files, bounded")
struct HostileSVGTests {
    /// A TCP listener on 127.0.0.1 that is never accepted from: its backlog counts the connections
    /// anyone made to it.
    final class Listener {
        let descriptor: Int32
        let port: Int

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
            try #require(bound == 0 && listen(descriptor, 64) == 0)
            _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
            port = Int(UInt16(bigEndian: address.sin_port))
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }

        /// Connections made to it so far (each accepted and closed here).
        func connections() -> Int {
            var count = 0
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return count }
                close(client)
                count += 1
            }
        }

        deinit { close(descriptor) }
    }

    static let ns = #"xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#

    /// The documents, with the listener's port and a red PNG outside the document.
    static func documents(port: Int, secret: String) -> [(name: String, svg: String)] {
        let remote = "http://127.0.0.1:\(port)"
        let levels = (1...9).map { level in
            "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }.joined(separator: " ")
        return [
            ("billion laughs", #"<!DOCTYPE svg [ <!ENTITY l0 "lol"> \#(levels) ]><svg \#(ns) width="10" height="10"><text y="9">&l9;</text></svg>"#),
            ("external DTD", #"<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "\#(remote)/svg11.dtd"><svg \#(ns) width="10" height="10"><rect width="10" height="10" fill="white"/></svg>"#),
            ("external entity", #"<!DOCTYPE svg [ <!ENTITY e SYSTEM "\#(remote)/e.txt"> <!ENTITY f SYSTEM "file:///etc/passwd"> ]><svg \#(ns) width="10" height="10"><text y="9">&e;&f;</text></svg>"#),
            ("remote image", #"<svg \#(ns) width="10" height="10"><rect width="10" height="10" fill="white"/><image href="\#(remote)/x.png" width="10" height="10"/></svg>"#),
            ("file image", #"<svg \#(ns) width="10" height="10"><rect width="10" height="10" fill="white"/><image xlink:href="file://\#(secret)" width="10" height="10"/><image href="file:///etc/passwd" width="10" height="10"/></svg>"#),
            ("relative image", #"<svg \#(ns) width="10" height="10"><rect width="10" height="10" fill="white"/><image href="\#(secret)" width="10" height="10"/></svg>"#),
            ("remote use", #"<svg \#(ns) width="10" height="10"><rect width="10" height="10" fill="white"/><use xlink:href="\#(remote)/r.svg#a"/></svg>"#),
            ("css import", #"<svg \#(ns) width="10" height="10"><style>@import url(\#(remote)/a.css); @import "\#(remote)/b.css"; rect { fill: url(\#(remote)/p.svg#f) }</style><rect width="10" height="10" fill="white" style="filter: url(\#(remote)/f.svg#f)"/></svg>"#),
            ("stylesheet instruction", #"<?xml version="1.0"?><?xml-stylesheet href="\#(remote)/s.css" type="text/css"?><svg \#(ns) width="10" height="10"><rect width="10" height="10" fill="white"/></svg>"#),
            ("xinclude", #"<svg \#(ns) xmlns:xi="http://www.w3.org/2001/XInclude" width="10" height="10"><rect width="10" height="10" fill="white"/><xi:include href="\#(remote)/i.svg" parse="xml"/><xi:include href="file:///etc/passwd" parse="text"/></svg>"#),
            ("script", #"<svg \#(ns) width="10" height="10" onload="fetch('\#(remote)/o')"><script>fetch("\#(remote)/s")</script><rect width="10" height="10" fill="white" onclick="x()"/></svg>"#),
            ("escaped css", #"<svg \#(ns) width="10" height="10"><rect width="10" height="10" style="fill: \75 rl(\#(remote)/e.svg#f)"/></svg>"#),
            ("huge", #"<svg \#(ns) width="100000" height="100000" viewBox="0 0 10 10"><rect width="10" height="10" fill="red"/></svg>"#),
            ("deep groups", "<svg \(ns) width=\"10\" height=\"10\">" + String(repeating: "<g>", count: 100_000) + "<rect width=\"5\" height=\"5\"/>" + String(repeating: "</g>", count: 100_000) + "</svg>"),
            ("many elements", "<svg \(ns) width=\"10\" height=\"10\">" + String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 300_000) + "</svg>"),
        ]
    }

    @Test("each hostile document: a typed error or a safe render through probe, decode, thumbnail and sanitisation; the listener sees no connection, the file outside is not drawn, memory grows by under 1 GB")
    func hostile() throws {
        let peakBefore = Self.peakKiB()
        let listener = try Listener()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A red square outside the document: drawn, it would turn the white render red.
        let secret = folder.appendingPathComponent("secret.png")
        let red = try ImageDecoder().decode(Data(#"<svg \#(Self.ns) width="10" height="10"><rect width="10" height="10" fill="red"/></svg>"#.utf8))
        try ImageEncoder.encode(red, as: .png(PNGOptions())).write(to: secret)

        for (name, svg) in Self.documents(port: listener.port, secret: secret.path) {
            let data = Data(svg.utf8)
            var outcomes: [String] = []
            func attempt(_ what: String, _ body: () throws(ImagingError) -> Image?) -> String {
                do {
                    if let image = try body() {
                        // Whatever is drawn has no red from the file outside.
                        if let pixels = try? image.pixels(), pixels.bands >= 3 {
                            var reddish = false
                            for index in stride(from: 0, to: pixels.bytes.count, by: pixels.bands) {
                                let (red, green, blue) = (pixels.bytes[index], pixels.bytes[index + 1], pixels.bytes[index + 2])
                                let opaque = pixels.bands < 4 || pixels.bytes[index + 3] > 200
                                if red > 200, green < 60, blue < 60, opaque { reddish = true }
                            }
                            #expect(!reddish || name == "huge", "\(name): \(what) drew red")
                        }
                        return "\(what): \(image.width)x\(image.height)"
                    }
                    return "\(what): ok"
                } catch {
                    #expect(error.kind != .operationFailed && error.kind != .io, "\(name): \(what) failed with \(error.kind): \(error.message)")
                    return "\(what): \(error.kind)"
                }
            }
            outcomes.append(attempt("probe") { () throws(ImagingError) -> Image? in _ = try ImageDecoder().probe(data); return nil })
            outcomes.append(attempt("decode") { () throws(ImagingError) -> Image? in try ImageDecoder().decode(data) })
            outcomes.append(attempt("thumbnail") { () throws(ImagingError) -> Image? in try Thumbnailer(options: ThumbnailOptions(width: 64, height: 64)).thumbnail(data).image })
            outcomes.append(attempt("sanitised") { () throws(ImagingError) -> Image? in
                let (clean, _) = try SVGDocument.sanitized(data)
                let text = String(decoding: clean, as: UTF8.self)
                #expect(!text.contains("127.0.0.1") && !text.contains("file:") && !text.contains("root:"), "\(name): \(text.prefix(300))")
                return nil
            })
            #expect(listener.connections() == 0, "\(name) connected to the listener: \(outcomes)")
        }
        #expect(listener.connections() == 0)
        // The process' peak RSS grew by less than 1 GB over these documents: the growth, not the
        // peak itself, since the other suites run in the same process. Sanitizers' shadow memory
        // counts in RSS too, so the bound is multiplied by VIGNETTE_TEST_MEMORY_SCALE
        // (Scripts/sanitize.sh sets it; 1 otherwise).
        let scale = getenv("VIGNETTE_TEST_MEMORY_SCALE").flatMap { Int(String(cString: $0)) }.map { max(1, $0) } ?? 1
        #expect(Self.peakKiB() - peakBefore < scale << 20, "peak RSS \(peakBefore) → \(Self.peakKiB()) KiB")
    }

    /// The process' peak resident memory so far (`getrusage`'s `ru_maxrss`, in KiB).
    static func peakKiB() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }

    @Test("the kinds the limits name: entity expansion and nesting are limitExceeded, a 100000×100000 document decoded whole is limitExceeded")
    func refusalKinds() throws {
        let documents = Dictionary(uniqueKeysWithValues: Self.documents(port: 9, secret: "/nonexistent").map { ($0.name, $0.svg) })
        for name in ["billion laughs", "deep groups", "many elements"] {
            let data = Data(try #require(documents[name]).utf8)
            do {
                _ = try SVGDocument.sanitized(data)
                Issue.record("\(name) was accepted")
            } catch {
                #expect(error.kind == .limitExceeded, "\(name): \(error.kind) \(error.message)")
            }
        }
        let huge = Data(try #require(documents["huge"]).utf8)
        do {
            _ = try ImageDecoder().decode(huge)
            Issue.record("the huge document was decoded")
        } catch {
            #expect(error.kind == .limitExceeded)
        }
    }
}
