import AsyncHTTPClient
import Foundation
import Testing
import VignetteCodecs

/// `vignette serve` with imgproxy Pro's autoquality and best-format variables: each has its effect,
/// checked through answers; dssim and bad values stop the server at start, naming the variable.
@Suite("vignette serve with imgproxy's IMGPROXY_AUTOQUALITY_* and IMGPROXY_BEST_FORMAT_*")
struct AutoQualityEnvironmentTests {
    @Test("the configured autoquality applies to every URL, its per-format range to AVIF; best by default with the preferred formats")
    func deployment() async throws {
        let environment = [
            "IMGPROXY_BIND": "127.0.0.1:0", "IMGPROXY_LOCAL_FILESYSTEM_ROOT": CLI.fixtures.path,
            "IMGPROXY_AUTOQUALITY_METHOD": "ssimulacra2", "IMGPROXY_AUTOQUALITY_TARGET": "75", "IMGPROXY_AUTOQUALITY_MIN": "40",
            "IMGPROXY_AUTOQUALITY_MAX": "60", "IMGPROXY_AUTOQUALITY_FORMAT_MIN": "avif=21", "IMGPROXY_AUTOQUALITY_FORMAT_MAX": "avif=22",
            "IMGPROXY_AUTOQUALITY_ALLOWED_ERROR": "2", "IMGPROXY_BEST_FORMAT_BY_DEFAULT": "true", "IMGPROXY_PREFERRED_FORMATS": "jpeg",
            "IMGPROXY_AUTO_AVIF": "false", "IMGPROXY_AUTO_WEBP": "false",
        ]
        let (result, killed) = try await CLI.serving([], environment: environment) { client, server in
            let jpeg = try await ImgproxyEnvironmentTests.fetch(client, server + "/insecure/rs:fit:200:200/plain/local:///baseline.jpg@jpg")
            let header = try #require(jpeg.header("Vignette-Encoding"))
            let quality = try #require(header.split(separator: ";").first { $0.hasPrefix(" q=") }.flatMap { Int($0.dropFirst(3)) })
            #expect(jpeg.status == 200 && (40...60).contains(quality), "\(header)")
            let avif = try await ImgproxyEnvironmentTests.fetch(client, server + "/insecure/rs:fit:200:200/plain/local:///baseline.jpg@avif")
            let avifHeader = try #require(avif.header("Vignette-Encoding"))
            #expect(avifHeader.hasPrefix("avif; q=21") || avifHeader.hasPrefix("avif; q=22"), "\(avifHeader)")
            // A URL without a format is f:best over the preferred formats (JPEG alone here).
            let best = try await ImgproxyEnvironmentTests.fetch(client, server + "/insecure/rs:fit:200:200/plain/local:///baseline.jpg")
            #expect(best.info?.format == .jpeg && best.header("Vignette-Encoding")?.contains("formats=") == true)
        }
        #expect(!killed && result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("warning"), "\(result.stderr)")
    }

    @Test("--no-source-passthrough and VIGNETTE_NO_SOURCE_PASSTHROUGH=1: f:best answers an encoded result, not the smaller source")
    func noSourcePassthrough() async throws {
        // A strongly compressed JPEG, served at its own size: every candidate at q80 is larger.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try ImageDecoder().decode(Data(contentsOf: CLI.fixtures.appendingPathComponent("baseline.jpg")))
        let small = try ImageEncoder.encode(photo, as: .jpeg(JPEGOptions(quality: 30)))
        try small.write(to: folder.appendingPathComponent("small.jpg"))
        let url = "/insecure/rs:fit:4000:4000/f:best/plain/local:///small.jpg"
        let environment = ["IMGPROXY_PREFERRED_FORMATS": "jpeg,png", "VIGNETTE_BIND": "127.0.0.1:0", "VIGNETTE_ROOT": folder.path]
        for (arguments, extra, passes) in [
            ([String](), [String: String](), true), (["--no-source-passthrough"], [:], false), ([], ["VIGNETTE_NO_SOURCE_PASSTHROUGH": "1"], false),
        ] {
            let (result, killed) = try await CLI.serving(arguments, environment: environment.merging(extra) { $1 }) { client, server in
                let answer = try await ImgproxyEnvironmentTests.fetch(client, server + url)
                #expect(answer.status == 200 && (answer.body == small) == passes, "\(arguments) \(extra): \(answer.body.count) vs \(small.count)")
                #expect(answer.header("Vignette-Encoding")?.contains("source") == passes, "\(answer.header("Vignette-Encoding") ?? "none")")
            }
            #expect(!killed && result.status == 0, "\(result.stderr)")
        }
    }

    @Test("dssim, ml and bad values stop vignette serve at start, naming the variable")
    func badValues() async throws {
        for (name, value) in [
            ("IMGPROXY_AUTOQUALITY_METHOD", "dssim"), ("IMGPROXY_AUTOQUALITY_METHOD", "ml"), ("IMGPROXY_AUTOQUALITY_MIN", "0"),
            ("IMGPROXY_AUTOQUALITY_FORMAT_MAX", "avif:50"), ("IMGPROXY_BEST_FORMAT_COMPLEXITY_THRESHOLD", "high"),
        ] {
            let environment = ["IMGPROXY_BIND": "127.0.0.1:0", name: value]
            let (result, killed) = await CLI.finish(try CLI.start(["serve"], environment: environment), killAfter: .seconds(60))
            #expect(!killed && result.status == 2 && result.stderr.contains(name), "\(name)=\(value): \(result.status) \(result.stderr)")
        }
    }
}
