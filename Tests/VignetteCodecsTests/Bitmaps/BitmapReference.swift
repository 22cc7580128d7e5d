import Foundation
import Testing
import VignetteCodecs

/// Pillow's decodes of BMP and ICO files (`bitmap_reference.py`, run by the Python of .venv-test),
/// and the comparison of Vignette's decodes with them.
enum BitmapReference {
    static let suite = TestFiles.fixtures.appendingPathComponent("bmpsuite")
    static let icons = TestFiles.fixtures.appendingPathComponent("icons")

    static var python: String? {
        let venv = TestFiles.repository.appendingPathComponent(".venv-test/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    static func files(in folder: String) -> [String] {
        let url = suite.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".bmp") }.sorted().map { "\(folder)/\($0)" }
    }

    struct Decoded {
        var mode: String
        var pixels: PixelBuffer
    }

    /// Pillow's RGBA decode of each of `files` (a path, or "path@WxH" for an icon's entry); nil
    /// for what Pillow refuses.
    static func pillow(_ files: [String]) async throws -> [String: Decoded?] {
        let python = try #require(python, "needs the Python of .venv-test with Pillow (Scripts/test-venv.sh)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vignette-bitmaps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = TestFiles.repository.appendingPathComponent("Tests/VignetteCodecsTests/Bitmaps/bitmap_reference.py").path
        let output = try await ColourReference.run(python, [script, folder.path] + files)
        var decoded: [String: Decoded?] = [:]
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
            let file = try #require(object["file"])
            if let png = object["png"], let mode = object["mode"] {
                let image = try ImageDecoder(limits: .unlimited).decode(Data(contentsOf: URL(fileURLWithPath: png)))
                decoded[file] = Decoded(mode: mode, pixels: try image.pixels())
            } else {
                decoded[file] = .some(nil)
            }
        }
        return decoded
    }

    /// The largest difference of a colour sample between `ours` and Pillow's RGBA, over the pixels
    /// both make visible, and whether their alpha agrees (compared only when Pillow's mode has
    /// alpha: Pillow gives RLE's skipped pixels colour 0, where Vignette makes them transparent).
    static func compare(_ ours: Image, _ theirs: Decoded) throws -> (colour: Int, alphaAgrees: Bool)? {
        let mine = try ours.pixels()
        let other = theirs.pixels
        guard mine.width == other.width, mine.height == other.height else { return nil }
        let pillowAlpha = theirs.mode.contains("A")
        var worst = 0
        var alphaAgrees = true
        for index in 0..<(mine.width * mine.height) {
            let m = index * mine.bands, o = index * 4
            let alpha = mine.bands == 4 ? Int(mine.bytes[m + 3]) : 255
            if pillowAlpha, alpha != Int(other.bytes[o + 3]) { alphaAgrees = false }
            guard alpha > 0, other.bytes[o + 3] > 0 else { continue }
            for band in 0..<3 {
                let value = Int(mine.bytes[m + (mine.bands >= 3 ? band : 0)])
                worst = max(worst, abs(value - Int(other.bytes[o + band])))
            }
        }
        return (worst, alphaAgrees)
    }
}

extension Trait where Self == ConditionTrait {
    static var pillow: Self {
        .enabled(if: BitmapReference.python != nil, "needs the Python of .venv-test with Pillow (Scripts/test-venv.sh; make test makes it)")
    }
}
