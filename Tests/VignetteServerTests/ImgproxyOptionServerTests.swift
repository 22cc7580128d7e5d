import Foundation
import Testing
import VignetteSupport
import Vignette
import VignetteHummingbird
import VignetteImgproxy
import VignetteServer

/// imgproxy's options about the response and the watermark, over loopback: expiry, file names,
/// raw and skipped processing, watermarks at each position, and budgets answered before any work.
@Suite("imgproxy options through vignette serve")
struct ImgproxyOptionServerTests {
    static let path = "/plain/local:///baseline.jpg"

    @Test("expires: 404 once the timestamp has passed, 200 before")
    func expires() async throws {
        try await RunningServer.with { running in
            let now = Int(Date().timeIntervalSince1970)
            let past = try await running.get("/insecure/rs:fit:50:50/exp:\(now - 10)\(Self.path)")
            #expect(past.status == 404 && String(decoding: past.body, as: UTF8.self).contains("expired"))
            #expect(try await running.get("/insecure/rs:fit:50:50/exp:\(now + 3600)\(Self.path)").status == 200)
        }
    }

    @Test("filename and return_attachment set Content-Disposition; the name follows the source and the format")
    func disposition() async throws {
        try await RunningServer.with { running in
            let named = try await running.get("/insecure/rs:fit:50:50/fn:holiday%20photo\(Self.path)@webp")
            #expect(named.header("Content-Disposition") == "inline; filename=\"holiday photo\"")
            let encoded = Base64URL.encode(Array("été.png".utf8))
            let attached = try await running.get("/insecure/rs:fit:50:50/att:1/fn:\(encoded):1\(Self.path)")
            #expect(attached.header("Content-Disposition") == "attachment; filename=\"t.png\"" || attached.header("Content-Disposition")?.hasPrefix("attachment; filename=") == true)
            let fromSource = try await running.get("/insecure/rs:fit:50:50/att:1\(Self.path)@png")
            #expect(fromSource.header("Content-Disposition") == "attachment; filename=\"baseline.png\"")
            #expect(try await running.get("/insecure/rs:fit:50:50\(Self.path)").header("Content-Disposition") == nil)
        }
    }

    @Test("raw and skip_processing send the source's bytes as they are")
    func raw() async throws {
        try await RunningServer.with { running in
            let source = try Data(contentsOf: URL(fileURLWithPath: Fixtures.folder + "/baseline.jpg"))
            let raw = try await running.get("/insecure/rs:fit:50:50/raw:1\(Self.path)")
            #expect(raw.status == 200 && raw.body == source && raw.header("Content-Type") == "image/jpeg")
            let skipped = try await running.get("/insecure/rs:fit:50:50/skp:jpg\(Self.path)@jpg")
            #expect(skipped.body == source)
            // Another format asked for: processed as usual.
            let processed = try await running.get("/insecure/rs:fit:50:50/skp:jpg\(Self.path)@png")
            #expect(processed.header("Content-Type") == "image/png" && processed.body != source)
            // The source rules still apply: a file outside the root is refused.
            #expect(try await running.get("/insecure/raw:1/plain/local:///../etc/passwd").status == 403)
        }
    }

    @Test("watermark: drawn at each position with offsets and scale; larger than the result, it is scaled to fit")
    func watermark() async throws {
        try await RunningServer.with({ $0.watermarkPath = Fixtures.folder + "/alpha.png" }) { running in
            let plain = try ImageDecoder().decode(try await running.get("/insecure/rs:fit:200:200\(Self.path)@png").body).pixels()
            for position in ["nowe", "noea", "sowe", "soea", "ce", "no", "so", "ea", "we", "re"] {
                let reply = try await running.get("/insecure/rs:fit:200:200/wm:1:\(position):5:5:0.3\(Self.path)@png")
                #expect(reply.status == 200, "\(position): \(String(decoding: reply.body, as: UTF8.self))")
                let marked = try ImageDecoder().decode(reply.body).pixels()
                #expect(marked.width == plain.width && marked.height == plain.height && marked.bands == plain.bands, "\(position)")
                #expect(marked.bytes != plain.bytes, "\(position): the watermark changed nothing")
            }
            // At the top left: the bottom right corner is untouched.
            let corner = try ImageDecoder().decode(try await running.get("/insecure/rs:fit:200:200/wm:1:nowe:0:0:0.2\(Self.path)@png").body).pixels()
            let last = corner.bytes.count - 3
            #expect(corner.bytes[last..<last + 3] == plain.bytes[last..<last + 3])
            // A 640×480 watermark on a 40-px result: scaled down to fit, never a failure.
            let big = try await running.get("/insecure/rs:fit:40:40/wm:0.5:ce\(Self.path)@png")
            #expect(big.status == 200)
        }
        // dpr 2 on a source that cannot give it: lowered to 1 as imgproxy does, and the watermark's
        // offsets and tile spacing with it, so the result is dpr 1's.
        try await RunningServer.with({ $0.watermarkPath = Fixtures.folder + "/alpha.png" }) { running in
            for mark in ["wm:1:nowe:20:10:0.1", "wm:1:re:30:20:0.1"] {
                let lowered = try await running.get("/insecure/rs:fit:4000:4000/dpr:2/\(mark)\(Self.path)@png")
                let single = try await running.get("/insecure/rs:fit:4000:4000/dpr:1/\(mark)\(Self.path)@png")
                #expect(lowered.status == 200 && single.status == 200)
                #expect(lowered.body == single.body, "\(mark): the offsets followed the dpr asked for, not the one that applied")
            }
        }
        // The watermark itself is the configured one: baseline.jpg as watermark, scaled to the result.
        try await RunningServer.with({ $0.watermarkPath = Fixtures.folder + "/baseline.jpg" }) { running in
            let reply = try await running.get("/insecure/rs:fit:30:30/wm:1:ce/plain/local:///alpha.png@png")
            #expect(reply.status == 200)
        }
    }

    @Test("a padding, extend or zoom over the budget is 413 at once; bad values are 400")
    func budgets() async throws {
        try await RunningServer.with { running in
            for options in ["rs:fit:100:100/pd:20000", "rs:fit:20000:20000/ex:1", "rs:fit:10000:10000:1/z:3", "rs:fit:50:50/mw:50000/mh:50000"] {
                let reply = try await running.get("/insecure/\(options)\(Self.path)")
                #expect(reply.status == 413, "\(options): \(reply.status) \(String(decoding: reply.body, as: UTF8.self))")
            }
            for options in ["z:0", "pd:-1", "g:fp:2:0", "c:-5:5", "t:300", "wm:2", "mb:-1", "fq:jpg", "fn:a%2Fb"] {
                #expect(try await running.get("/insecure/\(options)\(Self.path)").status == 400, "\(options)")
            }
        }
    }

    @Test("a local file is held to the configured byte limit by the server's file loader: one byte under its size is refused (413), its size is accepted")
    func localFileLimit() async throws {
        let size = try #require(try FileManager.default.attributesOfItem(atPath: Fixtures.folder + "/baseline.jpg")[.size] as? Int)
        for (limit, status) in [(1000, 413), (size - 1, 413), (size, 200)] {
            try await RunningServer.with({ $0.decodingLimits.maxInputBytes = limit }) { running in
                let reply = try await running.get("/insecure/rs:fit:50:50\(Self.path)")
                #expect(reply.status == status, "limit \(limit)")
            }
        }
    }

    @Test("random option strings never give a 5xx", .timeLimit(.minutes(5)))
    func randomOptions() async throws {
        let names = ["rs", "s", "rt", "w", "h", "mw", "mh", "z", "dpr", "el", "ex", "exar", "g", "c", "t", "pd", "ar", "rot", "fl",
                     "bg", "bl", "sh", "pix", "wm", "sm", "kcr", "scp", "ph", "eth", "q", "fq", "mb", "f", "skp", "raw", "cb", "exp",
                     "fn", "att", "msr", "msfs", "maf", "mafr", "mrd", "nope"]
        let words = ["", "0", "1", "-1", "0.5", "3", "17", "250", "99999", "1e9", "nan", "fit", "fill", "fill-down", "force", "auto",
                     "no", "soea", "sm", "fp", "re", "ce", "jpg", "webp", "png", "avif", "jxl", "t", "false", "ff00ff", "%zz", "é"]
        var generator = SystemRandomNumberGenerator()
        var paths: [String] = []
        for _ in 0..<400 {
            let options = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                ([names.randomElement(using: &generator)!] + (0..<Int.random(in: 0...4, using: &generator)).map { _ in words.randomElement(using: &generator)! })
                    .joined(separator: ":")
            }
            paths.append("/insecure/" + options.joined(separator: "/") + Self.path)
        }
        try await RunningServer.with({ $0.watermarkPath = Fixtures.folder + "/alpha.png" }) { running in
            for path in paths {
                let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
                let reply = try await running.get(encoded)
                #expect(reply.status < 500, "\(path): \(reply.status) \(String(decoding: reply.body.prefix(200), as: UTF8.self))")
            }
        }
    }
}
