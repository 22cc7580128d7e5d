import Foundation
import Testing
import VignetteCodecs

@Suite("Concurrent use")
struct ConcurrencyTests {
    @Test("many thumbnails, decodes and encodes at once from many threads give the same results as one at a time")
    func parallel() async throws {
        let files = FixtureEntry.all.map(\.url)
        let expected = files.map { url in try? Thumbnailer(options: ThumbnailOptions(size: 96)).thumbnail(fileAt: url.path).image.perceptualHash() }
        let results = try await withThrowingTaskGroup(of: (Int, PerceptualHash?).self) { group in
            for round in 0..<4 {
                for (index, url) in files.enumerated() {
                    group.addTask {
                        let format: EncodingFormat = round % 2 == 0 ? .webp(WebPOptions()) : .jpeg(JPEGOptions())
                        guard let (data, _) = try? Thumbnailer(options: ThumbnailOptions(size: 96)).encodedThumbnail(
                            try Data(contentsOf: url), as: format)
                        else { return (index, nil) }
                        return (index, try ImageDecoder().decode(data).perceptualHash())
                    }
                }
            }
            var all: [(Int, PerceptualHash?)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == files.count * 4)
        for (index, hash) in results {
            #expect((hash == nil) == (expected[index] == nil), "\(files[index].lastPathComponent)")
            if let hash, let reference = expected[index] {
                #expect(hash.distance(to: reference) <= 5, "\(files[index].lastPathComponent)")
            }
        }
    }
}
