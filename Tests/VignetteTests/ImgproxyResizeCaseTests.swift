import Foundation
import Testing
@testable import Vignette
import VignetteImgproxy

/// The sizes imgproxy gives in its own processing tests (its `processing_test.go`: fit, fill,
/// fill-down, each alone, with enlarge, extend and extend-aspect-ratio, and its result-size limit
/// cases with rotation and padding; 167 cases on a 200×100 PNG), written out again as a table, and
/// the zero-size cases worked out from its `calcScale`/`calcSizes`/`limitScale` (force and auto with
/// a side of 0, enlarge with no box, dpr with and without extend or padding, zoom). Each is the size
/// of a real result made by the path the server takes (`ImgproxyOptions` → `ImageRecipe.request` →
/// the pipeline), and the size `RecipePlan.outputSize(for:)` says from the header alone.
@Suite("imgproxy's resize cases: max_result_dimension, enlarge, zero sides")
struct ImgproxyResizeCaseTests {
    /// imgproxy's `geometry.png` is 200×100; the colours do not matter here.
    static let geometry = Result { try RecipeOptionsTests.cells(columns: 2, rows: 1) }
    /// A 600×450 JPEG (the issue's `el:1` case).
    static let photo = Result { () throws -> Data in
        let image = try Image(pixels: PixelBuffer(width: 600, height: 450, bands: 3, bytes: [UInt8](repeating: 128, count: 600 * 450 * 3)))
        return try ImageEncoder.encode(image, as: .jpeg(JPEGOptions()))
    }

    /// The result's size and the size the plan predicts from the header.
    func sizes(_ options: String, of source: Result<Data, any Error>) async throws -> (made: [Int], predicted: [Int]) {
        let data = try source.get()
        let recipe = try ImgproxyOptions().recipe(options)
        let pipeline = ImagePipeline.testing(loader: CountingLoader())
        let image = try await pipeline.image(for: recipe.request(for: .data(id: "fixture-\(data.count)", load: { data })))
        let predicted = try recipe.plan().outputSize(for: ImageDecoder().probe(data))
        return ([image.width, image.height], [predicted.width, predicted.height])
    }

    @Test("imgproxy's 167 resize cases on a 200×100 image", arguments: [
        ("rs:fit:50:50", 50, 25), ("rs:fit:50:20", 40, 20), ("rs:fit:20:50", 20, 10),
        ("rs:fit:300:300", 200, 100), ("rs:fit:300:50", 100, 50), ("rs:fit:100:300", 100, 50),
        ("rs:fit:0:50", 100, 50), ("rs:fit:50:0", 50, 25), ("rs:fit:0:200", 200, 100),
        ("rs:fit:300:0", 200, 100), ("rs:fit:50:50/el:1", 50, 25), ("rs:fit:50:20/el:1", 40, 20),
        ("rs:fit:20:50/el:1", 20, 10), ("rs:fit:300:300/el:1", 300, 150), ("rs:fit:300:125/el:1", 250, 125),
        ("rs:fit:250:300/el:1", 250, 125), ("rs:fit:0:50/el:1", 100, 50), ("rs:fit:50:0/el:1", 50, 25),
        ("rs:fit:0:200/el:1", 400, 200), ("rs:fit:300:0/el:1", 300, 150), ("rs:fit:50:50/ex:1", 50, 50),
        ("rs:fit:50:20/ex:1", 50, 20), ("rs:fit:20:50/ex:1", 20, 50), ("rs:fit:300:300/ex:1", 300, 300),
        ("rs:fit:300:125/ex:1", 300, 125), ("rs:fit:250:300/ex:1", 250, 300), ("rs:fit:0:50/ex:1", 100, 50),
        ("rs:fit:50:0/ex:1", 50, 25), ("rs:fit:0:200/ex:1", 200, 200), ("rs:fit:300:0/ex:1", 300, 100),
        ("rs:fit:50:50/exar:1", 50, 50), ("rs:fit:50:20/exar:1", 50, 20), ("rs:fit:20:50/exar:1", 20, 50),
        ("rs:fit:300:300/exar:1", 200, 200), ("rs:fit:300:125/exar:1", 240, 100), ("rs:fit:250:500/exar:1", 200, 400),
        ("rs:fit:0:50/exar:1", 100, 50), ("rs:fit:50:0/exar:1", 50, 25), ("rs:fit:0:200/exar:1", 200, 100),
        ("rs:fit:300:0/exar:1", 200, 100), ("rs:fill:50:50", 50, 50), ("rs:fill:50:20", 50, 20),
        ("rs:fill:20:50", 20, 50), ("rs:fill:300:300", 200, 100), ("rs:fill:300:50", 200, 50),
        ("rs:fill:100:300", 100, 100), ("rs:fill:0:50", 100, 50), ("rs:fill:50:0", 50, 25),
        ("rs:fill:0:200", 200, 100), ("rs:fill:300:0", 200, 100), ("rs:fill:50:50/el:1", 50, 50),
        ("rs:fill:50:20/el:1", 50, 20), ("rs:fill:20:50/el:1", 20, 50), ("rs:fill:300:300/el:1", 300, 300),
        ("rs:fill:300:125/el:1", 300, 125), ("rs:fill:250:300/el:1", 250, 300), ("rs:fill:0:50/el:1", 100, 50),
        ("rs:fill:50:0/el:1", 50, 25), ("rs:fill:0:200/el:1", 400, 200), ("rs:fill:300:0/el:1", 300, 150),
        ("rs:fill:50:50/ex:1", 50, 50), ("rs:fill:50:20/ex:1", 50, 20), ("rs:fill:20:50/ex:1", 20, 50),
        ("rs:fill:300:300/ex:1", 300, 300), ("rs:fill:300:125/ex:1", 300, 125), ("rs:fill:250:300/ex:1", 250, 300),
        ("rs:fill:300:50/ex:1", 300, 50), ("rs:fill:100:300/ex:1", 100, 300), ("rs:fill:0:50/ex:1", 100, 50),
        ("rs:fill:50:0/ex:1", 50, 25), ("rs:fill:0:200/ex:1", 200, 200), ("rs:fill:300:0/ex:1", 300, 100),
        ("rs:fill:50:50/exar:1", 50, 50), ("rs:fill:50:20/exar:1", 50, 20), ("rs:fill:20:50/exar:1", 20, 50),
        ("rs:fill:300:300/exar:1", 200, 200), ("rs:fill:300:125/exar:1", 240, 100), ("rs:fill:250:500/exar:1", 200, 400),
        ("rs:fill:300:50/exar:1", 300, 50), ("rs:fill:100:300/exar:1", 100, 300), ("rs:fill:0:50/exar:1", 100, 50),
        ("rs:fill:50:0/exar:1", 50, 25), ("rs:fill:0:200/exar:1", 200, 100), ("rs:fill:300:0/exar:1", 200, 100),
        ("rs:fill-down:50:50", 50, 50), ("rs:fill-down:50:20", 50, 20), ("rs:fill-down:20:50", 20, 50),
        ("rs:fill-down:300:300", 100, 100), ("rs:fill-down:300:125", 200, 83), ("rs:fill-down:250:300", 83, 100),
        ("rs:fill-down:0:50", 100, 50), ("rs:fill-down:50:0", 50, 25), ("rs:fill-down:0:200", 200, 100),
        ("rs:fill-down:300:0", 200, 100), ("rs:fill-down:50:50/el:1", 50, 50), ("rs:fill-down:50:20/el:1", 50, 20),
        ("rs:fill-down:20:50/el:1", 20, 50), ("rs:fill-down:300:300/el:1", 300, 300), ("rs:fill-down:300:125/el:1", 300, 125),
        ("rs:fill-down:250:300/el:1", 250, 300), ("rs:fill-down:0:50/el:1", 100, 50), ("rs:fill-down:50:0/el:1", 50, 25),
        ("rs:fill-down:0:200/el:1", 400, 200), ("rs:fill-down:300:0/el:1", 300, 150), ("rs:fill-down:50:50/ex:1", 50, 50),
        ("rs:fill-down:50:20/ex:1", 50, 20), ("rs:fill-down:20:50/ex:1", 20, 50), ("rs:fill-down:300:300/ex:1", 300, 300),
        ("rs:fill-down:300:125/ex:1", 300, 125), ("rs:fill-down:250:300/ex:1", 250, 300), ("rs:fill-down:300:50/ex:1", 300, 50),
        ("rs:fill-down:100:300/ex:1", 100, 300), ("rs:fill-down:0:50/ex:1", 100, 50), ("rs:fill-down:50:0/ex:1", 50, 25),
        ("rs:fill-down:0:200/ex:1", 200, 200), ("rs:fill-down:300:0/ex:1", 300, 100), ("rs:fill-down:50:50/exar:1", 50, 50),
        ("rs:fill-down:50:20/exar:1", 50, 20), ("rs:fill-down:20:50/exar:1", 20, 50), ("rs:fill-down:300:300/exar:1", 100, 100),
        ("rs:fill-down:300:125/exar:1", 200, 83), ("rs:fill-down:250:300/exar:1", 83, 100), ("rs:fill-down:0:50/exar:1", 100, 50),
        ("rs:fill-down:50:0/exar:1", 50, 25), ("rs:fill-down:0:200/exar:1", 200, 100), ("rs:fill-down:300:0/exar:1", 200, 100),
        ("mrd:1000/rs:fit:100:100", 100, 50), ("mrd:50/rs:fit:100:100", 50, 25), ("mrd:50/rs:fit:0:0", 50, 25),
        ("mrd:100/rs:fit:0:100", 100, 50), ("mrd:50/rs:fit:150:0", 50, 25), ("mrd:100/rs:fit:1000:1000", 100, 50),
        ("mrd:100/rs:fit:1000:1000/el:1", 100, 50), ("mrd:100/rs:fit:1000:2000/ex:1", 50, 100), ("mrd:100/rs:fit:1000:2000/exar:1", 50, 100),
        ("mrd:100/rs:fit:100:150/rot:90", 50, 100), ("mrd:100/rs:fit:0:0/rot:90", 50, 100), ("mrd:200/rs:fit:100:100/pd:100:200:300:400", 200, 129),
        ("mrd:1000/rs:fill:100:100", 100, 100), ("mrd:50/rs:fill:100:100", 50, 50), ("mrd:50/rs:fill:1000:50", 50, 13),
        ("mrd:50/rs:fill:100:1000", 50, 50), ("mrd:50/rs:fill:0:0", 50, 25), ("mrd:100/rs:fill:0:100", 100, 50),
        ("mrd:50/rs:fill:150:0", 50, 25), ("mrd:100/rs:fill:1000:1000", 100, 50), ("mrd:100/rs:fill:1000:1000/el:1", 100, 100),
        ("mrd:100/rs:fill:1000:2000/ex:1", 50, 100), ("mrd:100/rs:fill:1000:2000/exar:1", 50, 100), ("mrd:100/rs:fill:100:150/rot:90", 67, 100),
        ("mrd:100/rs:fill:0:0/rot:90", 50, 100), ("mrd:200/rs:fill:100:100/pd:100:200:300:400", 200, 144), ("mrd:1000/rs:fill-down:100:100", 100, 100),
        ("mrd:50/rs:fill-down:100:100", 50, 50), ("mrd:50/rs:fill-down:1000:50", 50, 3), ("mrd:50/rs:fill-down:100:1000", 5, 50),
        ("mrd:50/rs:fill-down:0:0", 50, 25), ("mrd:100/rs:fill-down:0:100", 100, 50), ("mrd:50/rs:fill-down:150:0", 50, 25),
        ("mrd:100/rs:fill-down:1000:1000", 100, 100), ("mrd:100/rs:fill-down:1000:1000/el:1", 100, 100), ("mrd:100/rs:fill-down:1000:2000/ex:1", 50, 100),
        ("mrd:100/rs:fill-down:1000:2000/exar:1", 50, 100), ("mrd:100/rs:fill-down:1000:1500/rot:90", 67, 100), ("mrd:100/rs:fill-down:0:0/rot:90", 50, 100),
        ("mrd:200/rs:fill-down:100:100/pd:100:200:300:400", 200, 144), ("mrd:200/rs:fill-down:1000:1000/pd:100:200:300:400", 200, 144),
    ])
    func imgproxyCases(options: String, width: Int, height: Int) async throws {
        let (made, predicted) = try await sizes(options, of: Self.geometry)
        #expect(made == [width, height], "\(options)")
        #expect(predicted == made, "\(options)")
    }

    @Test("zero sides, enlarge, dpr, zoom and the limit, as imgproxy's code gives them", arguments: [
        // A side of 0 is not resized by force, and follows the other's scale for the other types.
        ("rs:force:0:50", 200, 50), ("rs:force:50:0", 50, 100), ("rs:force:0:0", 200, 100), ("rs:force:0:0/el:1", 200, 100),
        ("rs:force:0:200", 100, 100), ("rs:force:0:200/el:1", 200, 200), ("rs:auto:0:50", 100, 50), ("rs:auto:50:0", 50, 25),
        ("rs:fill-down:0:50", 100, 50), ("rs:fit:0:0/el:1", 200, 100), ("el:1", 200, 100),
        // dpr: lowered to what the source gives without enlarging; extend keeps the box's composition.
        ("rs:fit:0:0/dpr:2", 200, 100), ("rs:fit:0:0/dpr:2/el:1", 400, 200), ("rs:fit:0:0/ex:1/dpr:2", 200, 100),
        ("rs:fit:100:100/ex:1/dpr:2", 200, 200), ("rs:fit:300:300/ex:1/dpr:2", 300, 300), ("rs:fit:300:300/dpr:2/pd:10", 220, 120),
        ("rs:fit:50:50/dpr:2/pd:10", 140, 90), ("rs:fit:0:0/el:1/dpr:3", 600, 300),
        // zoom without enlarge stays at the source's size.
        ("rs:fit:0:0/z:2", 200, 100), ("rs:fit:0:0/z:2/el:1", 400, 200),
        // The limit on a result that is not resized, and on an extended one.
        ("mrd:50/rs:force:0:0", 50, 25), ("mrd:100/rs:fit:300:300/ex:1", 100, 100),
    ])
    func zeroSides(options: String, width: Int, height: Int) async throws {
        let (made, predicted) = try await sizes(options, of: Self.geometry)
        #expect(made == [width, height], "\(options)")
        #expect(predicted == made, "\(options)")
    }

    @Test("enlarge with no box keeps a photo's size; force with a side of 0 leaves that side alone", arguments: [
        ("el:1", 600, 450), ("rs:force:0:0/el:1", 600, 450), ("rs:force:320:0", 320, 450), ("rs:force:0:300", 600, 300),
        ("rs:force:0:900", 300, 450), ("rs:force:0:900/el:1", 600, 900),
    ])
    func photo(options: String, width: Int, height: Int) async throws {
        let (made, predicted) = try await sizes(options, of: Self.photo)
        #expect(made == [width, height], "\(options)")
        #expect(predicted == made, "\(options)")
    }
}
