import Foundation
import Testing
@testable import Vignette

@Suite("Autoquality and best format: searched qualities and formats, checked by SSIMULACRA2")
struct AutoQualityTests {
    let photo = Files.repository.appendingPathComponent("Tests/Photos/astronaut.jpg").path

    /// The result of `recipe` made of `path` by a fresh pipeline, and the image before encoding
    /// (the same recipe written losslessly as PNG, decoded).
    func made(_ recipe: ImageRecipe, path: String, accepting: Set<ImageFormat> = []) async throws -> (EncodedImage, Image) {
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let request = try recipe.request(for: .file(path), limits: .untrusted)
        let encoded = try await pipeline.encodedImage(for: request, as: try recipe.encoding(accepting: accepting)).image
        var lossless = recipe
        (lossless.format, lossless.autoQuality, lossless.bestFormat) = (.png, nil, nil)
        let png = try await pipeline.encodedImage(for: request, as: try lossless.encoding()).image
        return (encoded, try ImageDecoder().decode(png.data))
    }

    func recipe(_ format: ImageFormat?, target: Double = 80, min: Int = 30, max: Int = 95, error: Double = 1) -> ImageRecipe {
        var recipe = ImageRecipe(width: 384, height: 384)
        recipe.format = format
        recipe.autoQuality = ImageRecipe.AutoQuality(method: .ssimulacra2, target: target, minQuality: min, maxQuality: max, allowedError: error)
        return recipe
    }

    @Test("ssimulacra2: each format's result scores at least target − error, found in at most 6 encodes, and a lower quality does not",
          arguments: [ImageFormat.jpeg, .webp, .avif])
    func reachesTarget(format: ImageFormat) async throws {
        let (encoded, reference) = try await made(recipe(format, target: 80), path: photo)
        let choice = try #require(encoded.choice)
        #expect(encoded.format == format && choice.format == format)
        #expect(choice.reachedTarget && choice.encodes >= 1 && choice.encodes <= AutoQualitySearch.maxEncodes && choice.scorings == choice.encodes)
        let prepared = try SSIMULACRA2Reference(image: reference)
        let score = try prepared.score(ImageDecoder().decode(encoded.data))
        #expect(score >= 79, "scored \(score) at q\(choice.quality ?? 0)")
        #expect(abs(score - (choice.score ?? 0)) < 0.01)
        // The quality chosen is within the range, and well below the top for a target of 80.
        let quality = try #require(choice.quality)
        #expect((30...95).contains(quality))
        // Ten qualities lower scores below the floor: the search did not stop far above it.
        let lower = try ImageEncoder.encode(reference, as: try recipe(format).encodingFormat(format).with(quality: max(1, quality - 10)))
        #expect(try prepared.score(ImageDecoder().decode(lower)) < score)
    }

    @Test("ssimulacra2: an image with alpha written as JPEG is scored against itself flattened onto white, as the encoder flattens it")
    func alphaAsJPEG() async throws {
        let (encoded, reference) = try await made(recipe(.jpeg, target: 80), path: Files.fixture("alpha.png"))
        let choice = try #require(encoded.choice)
        #expect(choice.reachedTarget, "\(choice)")
        let score = try SSIMULACRA2Reference(image: reference.flattened()).score(ImageDecoder().decode(encoded.data))
        #expect(score >= 79, "scored \(score) at q\(choice.quality ?? 0)")
    }

    @Test("ssimulacra2: a target the max quality cannot reach gives the max, said in the choice")
    func unreachable() async throws {
        let (encoded, _) = try await made(recipe(.jpeg, target: 99, min: 20, max: 40), path: photo)
        let choice = try #require(encoded.choice)
        #expect(choice.quality == 40 && !choice.reachedTarget)
        #expect(choice.description.contains("target=unreached"))
    }

    @Test("size: the highest quality in [min, max] that fits the bytes")
    func size() async throws {
        var recipe = ImageRecipe(width: 384, height: 384)
        recipe.format = .jpeg
        recipe.autoQuality = ImageRecipe.AutoQuality(method: .size, target: 12_000, minQuality: 10, maxQuality: 90)
        let (encoded, reference) = try await made(recipe, path: photo)
        let choice = try #require(encoded.choice)
        let quality = try #require(choice.quality)
        #expect(encoded.data.count <= 12_000 && choice.reachedTarget && choice.encodes <= AutoQualitySearch.maxEncodes)
        // One quality step up no longer fits (unless the search ran out of encodes first).
        let above = try ImageEncoder.encode(reference, as: .jpeg(JPEGOptions(quality: quality + 1)))
        #expect(above.count > 12_000 || choice.encodes == AutoQualitySearch.maxEncodes)
    }

    @Test("f:best keeps the smallest of the formats allowed, each at its set quality")
    func bestIsSmallest() async throws {
        var best = ImageRecipe(width: 384, height: 384)
        best.bestFormat = ImageRecipe.BestFormat(formats: [.jpeg], passesSourceThrough: false)
        let (encoded, _) = try await made(best, path: photo, accepting: [.webp, .avif])
        let choice = try #require(encoded.choice)
        #expect(choice.formatsTried >= 3)
        for format in [ImageFormat.jpeg, .webp, .avif] {
            var fixed = ImageRecipe(width: 384, height: 384)
            fixed.format = format
            let (single, _) = try await made(fixed, path: photo)
            #expect(encoded.data.count <= single.data.count, "best \(encoded.format) \(encoded.data.count) vs \(format) \(single.data.count)")
        }
    }

    @Test("f:best with autoquality: every candidate meets the target; the answer is the smallest and scores at least target − error")
    func bestWithAutoQuality() async throws {
        var best = recipe(nil, target: 80)
        best.bestFormat = ImageRecipe.BestFormat(formats: [.jpeg], passesSourceThrough: false)
        let (encoded, reference) = try await made(best, path: photo, accepting: [.webp, .avif])
        let choice = try #require(encoded.choice)
        let score = try SSIMULACRA2Reference(image: reference).score(ImageDecoder().decode(encoded.data))
        #expect(score >= 79 && choice.reachedTarget)
        #expect(choice.encodes <= choice.formatsTried * AutoQualitySearch.maxEncodes)
        let (jpeg, _) = try await made(recipe(.jpeg, target: 80), path: photo)
        #expect(encoded.data.count <= jpeg.data.count)
    }

    @Test("f:best on a flat graphic also tries lossless PNG and WebP (complexity under the threshold)")
    func simpleImageLossless() throws {
        let flat = try ImageDecoder().decode(Data(contentsOf: URL(fileURLWithPath: Files.fixture("palette.png"))))
        let photoImage = try ImageDecoder().decode(Data(contentsOf: URL(fileURLWithPath: photo)))
        #expect(try ImageComplexity.score(flat) < 5.5)
        #expect(try ImageComplexity.score(photoImage) > 5.5)
    }

    @Test("f:best answers the source's own bytes when they are allowed, the result's size and smaller; not when turned off")
    func sourcePassthrough() async throws {
        // A small, strongly compressed JPEG source: at q80 every candidate is larger.
        let source = try ImageDecoder().decode(Data(contentsOf: URL(fileURLWithPath: photo)))
        let small = try ImageEncoder.encode(source, as: .jpeg(JPEGOptions(quality: 30)))
        let folder = try Files.temporaryDirectory()
        let path = folder + "/small.jpg"
        try small.write(to: URL(fileURLWithPath: path))
        var best = ImageRecipe(width: 1024, height: 1024)
        best.bestFormat = ImageRecipe.BestFormat(formats: [.jpeg, .png])
        let (kept, _) = try await made(best, path: path, accepting: [.webp])
        #expect(kept.data == small && kept.choice?.isSource == true && kept.format == .jpeg)
        best.bestFormat?.passesSourceThrough = false
        let (encoded, _) = try await made(best, path: path, accepting: [.webp])
        #expect(encoded.data != small && encoded.choice?.isSource == false)
        // A box that shrinks the image: the source's bytes are not the result.
        var shrunk = ImageRecipe(width: 128, height: 128)
        shrunk.bestFormat = ImageRecipe.BestFormat(formats: [.jpeg, .png])
        let (thumbnail, _) = try await made(shrunk, path: path)
        #expect(thumbnail.data != small && thumbnail.width == 128)
    }

    @Test("bad settings are refused, naming the argument", arguments: ["target", "min quality", "png", "gif", "size"])
    func refused(name: String) {
        var recipe = ImageRecipe(width: 100, height: 100)
        switch name {
        case "target": recipe.autoQuality = .init(method: .ssimulacra2, target: 120)
        case "min quality": recipe.autoQuality = .init(method: .ssimulacra2, minQuality: 90, maxQuality: 80)
        case "png": (recipe.format, recipe.autoQuality) = (.png, .init(method: .ssimulacra2))
        case "gif": (recipe.format, recipe.autoQuality) = (.gif, .init(method: .size, target: 1000))
        default: recipe.autoQuality = .init(method: .size)
        }
        #expect {
            try recipe.validate()
        } throws: { error in
            guard let error = error as? ImagingError else { return false }
            return error.kind == .invalidArgument && error.message.contains(name)
        }
    }

    @Test("unknown methods (imgproxy Pro's dssim, ml) are refused naming the methods that exist")
    func unknownMethod() {
        for name in ["dssim", "ml", "nope"] {
            #expect {
                _ = try ImageRecipe.AutoQuality.Method(parsing: name)
            } throws: { error in
                guard let error = error as? ImagingError else { return false }
                return error.message.contains("ssimulacra2") && error.message.contains("size")
            }
        }
    }

    @Test("a cancelled request stops the search before its next encode")
    func cancelled() throws {
        let image = try ImageDecoder().decode(Data(contentsOf: URL(fileURLWithPath: photo)))
        let cancellation = ImagingCancellation()
        cancellation.cancel()
        let search = OutputEncoding.Search(autoQuality: .init(method: .ssimulacra2, target: 80))
        #expect {
            _ = try AutoQualitySearch(search: search, limits: .untrusted, cancellation: cancellation).run(image, fallback: .jpeg(JPEGOptions()))
        } throws: { error in
            (error as? ImagingError)?.kind == .cancelled
        }
    }

    @Test("the search's next quality stays in the bracket and moves towards the target")
    func nextQuality() {
        #expect(AutoQualitySearch.next(after: [(70, 75)], target: 80, in: 71...95) > 70)
        #expect(AutoQualitySearch.next(after: [(70, 90)], target: 80, in: 30...69) < 70)
        #expect(AutoQualitySearch.next(after: [(70, 75), (80, 85)], target: 80, in: 71...79) == 75)
        #expect(AutoQualitySearch.predicted(80, for: .jpeg, in: 30...95) == 82)
        #expect(AutoQualitySearch.predicted(80, for: .jpeg, in: 30...60) == 60)
    }

    @Test("the encoding's id names the search: another target is another cache entry")
    func identifiers() throws {
        let a = try recipe(.jpeg, target: 80).encoding(), b = try recipe(.jpeg, target: 85).encoding()
        #expect(a.id != b.id && a.id.contains("aq(ssimulacra2"))
        var best = ImageRecipe()
        best.bestFormat = ImageRecipe.BestFormat()
        #expect(try best.encoding(accepting: [.avif]).id != best.encoding(accepting: [.webp]).id)
    }
}
