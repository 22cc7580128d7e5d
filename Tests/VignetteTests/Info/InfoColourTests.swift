import Foundation
import Testing
import Vignette

/// `/info`'s colour facts against Pillow and NumPy (.venv-test), and its placeholders against the
/// ThumbHash and BlurHash decoders.
@Suite("/info colours: average, dominant colours and palette against Pillow/NumPy; BlurHash and ThumbHash decoded")
struct InfoColourTests {
    /// Runs `script` in .venv-test's Python with `arguments`; its standard output.
    func python(_ script: String, _ arguments: [String]) async throws -> String {
        let python = try #require(InfoReferences.python, "needs .venv-test (Scripts/test-venv.sh) with Pillow and NumPy")
        return try await InfoReferences.run(python, ["-c", script] + arguments)
    }

    /// The mean RGBA of a file by NumPy over every pixel at full size (Pillow's RGBA conversion,
    /// EXIF orientation ignored: a mean does not depend on it), fully transparent pixels left out.
    static let meanScript = """
        import sys, numpy
        from PIL import Image
        a = numpy.asarray(Image.open(sys.argv[1]).convert('RGBA')).reshape(-1, 4).astype(numpy.float64)
        a = a[a[:, 3] > 0]
        print(' '.join(str(int(round(v))) for v in a.mean(axis=0)))
        """

    @Test("average: each channel within 4 of NumPy's full-size mean (the answer is computed on the image reduced to 100 px)",
          arguments: ["baseline.jpg", "alpha.png", "grey-alpha.png", "palette.png", "lossy.webp", "orientation-6.jpg"])
    func average(name: String) async throws {
        let path = Files.fixture(name)
        let info = try await InfoReferences.info(path, "avg:1")
        let ours = try #require(info["average"] as? [String: Int])
        let reference = try await python(Self.meanScript, [path]).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(reference.count == 4)
        for (index, channel) in ["R", "G", "B", "A"].enumerated() {
            #expect(abs((ours[channel] ?? -99) - reference[index]) <= 4, "\(name) \(channel): \(ours) vs NumPy \(reference)")
        }
    }

    @Test("average of the corpus' photo and its 16-bit PNG within 4 of NumPy's")
    func averageCorpus() async throws {
        for name in ["Landscape_9.jpg", "Flag_of_the_Netherlands-16bit.png"] {
            guard let path = InfoReferences.corpusFile(name) else { continue }
            let ours = try #require(try await InfoReferences.info(path, "avg:1")["average"] as? [String: Int])
            // Pillow reads 16-bit RGB as 8-bit when converting to RGBA.
            let reference = try await python(Self.meanScript, [path]).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            for (index, channel) in ["R", "G", "B"].enumerated() {
                #expect(abs((ours[channel] ?? -99) - reference[index]) <= 4, "\(name) \(channel): \(ours) vs NumPy \(reference)")
            }
        }
    }

    /// Four blocks of colours Pillow draws: a vibrant red (40 %), a dark vibrant blue, a light
    /// muted beige and a muted grey-green (20 % each). NumPy/colorsys prints each block's HSL
    /// class, the test's expectation.
    static let blocksScript = """
        import sys, colorsys, numpy
        from PIL import Image
        blocks = [((220, 30, 30), 80), ((20, 20, 120), 40), ((205, 195, 185), 40), ((110, 125, 110), 40)]
        a = numpy.zeros((100, 200, 3), numpy.uint8)
        x = 0
        for colour, width in blocks:
            a[:, x:x + width] = colour
            x += width
        Image.fromarray(a).save(sys.argv[1])
        for colour, width in blocks:
            h, l, s = colorsys.rgb_to_hls(*[c / 255 for c in colour])
            lum = 'light_' if l >= 0.55 else 'dark_' if l <= 0.45 else ''
            print(lum + ('vibrant' if s >= 0.35 else 'muted'), *colour)
        """

    @Test("dominant colours and palette of four known blocks: each block found under its HSL class, within 6 of its colour")
    func dominantColours() async throws {
        try await InfoReferences.inFolder { folder in
            let path = folder + "/blocks.png"
            let classes = try await python(Self.blocksScript, [path]).split(separator: "\n").map { $0.split(separator: " ") }
            let info = try await InfoReferences.info(path, "dc:1/p:4")
            let dominant = try #require(info["dominant_colors"] as? [String: Any])
            func near(_ colour: [String: Int]?, _ expected: [Int]) -> Bool {
                guard let colour else { return false }
                return zip(["R", "G", "B"], expected).allSatisfy { abs((colour[$0.0] ?? -99) - $0.1) <= 6 }
            }
            for line in classes {
                let expected = line.dropFirst().compactMap { Int($0) }
                #expect(near(dominant[String(line[0])] as? [String: Int], expected), "\(line[0]): \(dominant[String(line[0])] ?? "none") vs \(expected)")
            }
            let palette = try #require(info["palette"] as? [[String: Int]])
            #expect(palette.count == 4)
            // Each block is a colour of the palette (a cut at the median, not where the error is
            // least, averaged two blocks into one), the biggest first.
            for line in classes {
                let expected = line.dropFirst().compactMap { Int($0) }
                #expect(palette.contains { near($0, expected) }, "\(expected) not in \(palette)")
            }
            #expect(near(palette.first, [220, 30, 30]))
            // Without build_missed the two classes with no block are null; with it, made from their family.
            #expect(dominant["light_vibrant"] is NSNull && dominant["dark_muted"] is NSNull)
            let built = try #require(try await InfoReferences.info(path, "dc:1:1")["dominant_colors"] as? [String: Any])
            #expect(built["light_vibrant"] is [String: Int] && built["dark_muted"] is [String: Int])
        }
    }

    @Test("BlurHash with X×Y components: its size flag says so and it decodes to the image's colours; ThumbHash decodes to the aspect ratio",
          arguments: [(4, 3), (1, 1), (9, 9), (5, 2)])
    func placeholders(components: (Int, Int)) async throws {
        let path = Files.fixture("baseline.jpg")
        let info = try await InfoReferences.info(path, "bh:\(components.0):\(components.1)/th:1/avg:1")
        let blurHash = try #require(info["blurhash"] as? String)
        #expect(blurHash.count == 4 + 2 * components.0 * components.1)
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")
        #expect(alphabet.firstIndex(of: blurHash.first!) == (components.0 - 1) + (components.1 - 1) * 9)
        let decoded = try BlurHash.decode(blurHash, width: 16, height: 12)
        #expect(decoded.width == 16)
        let thumbText = try #require(info["thumbhash"] as? String)
        let thumb = try #require(Data(base64Encoded: thumbText))
        let image = try ThumbHash.decode(Array(thumb))
        let aspect = Double(image.width) / Double(image.height)
        #expect(abs(aspect - 640.0 / 480) < 0.1)
    }
}
