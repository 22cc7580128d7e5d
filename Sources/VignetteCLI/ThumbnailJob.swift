#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette
import VignetteSupport

/// Makes one input's thumbnail file through the run's `ImagePipeline`: the encoded result, a still
/// or an animation, comes from its disk cache (`--cache`) or is made by the pipeline
/// (`encodedImage(for:as:)`, the path a server takes), then written under the name its format and
/// size give. Skips inputs whose output exists when asked.
struct ThumbnailJob: Sendable {
    struct Outcome: Sendable {
        let output: String
        let width: Int
        let height: Int
        let bytes: Int
        var cached = false
        var skipped = false
        /// The placeholder of the written thumbnail, with `--placeholder`.
        var placeholder: (kind: PlaceholderKind, value: String)?
        /// How a `--gravity face` crop was placed (`ImagePipeline.facePlacement(for:)`).
        var crop: String?
        /// What `--quality auto` or `--format best` chose (nil for a result from the cache).
        var choice: EncodingChoice?
        /// Why the source's ICC profile was ignored (`EncodedImage.ignoredProfile`).
        var ignoredProfile: String?
    }

    let pipeline: ImagePipeline
    /// What every input is made into: the operations, the format and its quality.
    let recipe: ImageRecipe
    /// The recipe's thumbnail and the processors after it.
    let plan: RecipePlan
    /// The recipe's encoding (`encoding(of:)`).
    let encoding: OutputEncoding
    /// `--watermark`'s image, decoded once.
    var watermark: ImageRecipe.WatermarkImage?
    let folder: String
    let template: OutputTemplate
    let skipExisting: Bool
    let claims: OutputClaims
    /// Downloads http(s) and s3 inputs; nil when there are none.
    let remote: RemoteInputs?
    /// With `--cache`: results are kept, and downloaded inputs are named in the cache by their
    /// bytes' SHA-256 (so a URL whose image changed is made again); files by path, size and
    /// modification time (the pipeline's file id). Without it nothing is written to the cache.
    let keepsResults: Bool
    /// With `--placeholder`: the kind of placeholder string to add to each written thumbnail's report.
    var placeholder: PlaceholderKind?

    var limits: DecodingLimits { pipeline.configuration.decodingLimits }

    /// The run's encoding: the recipe's (`--format`, or for `auto` JPEG and `--alpha-format` for
    /// images with alpha), and for `auto` animated WebP for animated inputs (`--frames all`); its
    /// id names every setting in the cache key.
    static func encoding(of recipe: ImageRecipe) throws(ImagingError) -> OutputEncoding {
        let encoding = try recipe.encoding()
        // `--format best` keeps animations in the formats it accepts (`ImageRecipe.bestFormat`).
        return recipe.format == nil && recipe.bestFormat == nil ? encoding.keepingAnimation(as: try recipe.encodingFormat(.webp)) : encoding
    }

    func run(input: String, stem: String) async throws -> Outcome {
        let (request, read) = try await request(for: input)
        var output: String?
        // With --skip-existing the output's name must be known before any work: read the header.
        if skipExisting {
            let decoder = ImageDecoder(limits: limits)
            let expected = recipe.expectedOutput(for: try decoder.probe(read ?? Data()), plan: plan, encoding: encoding)
            let name = try await claim(input: input, stem: stem, format: expected.format, size: expected.size)
            if OutputFile.exists(name) {
                let existing = try? decoder.probe(fileAt: name)
                return Outcome(output: name, width: existing?.width ?? 0, height: existing?.height ?? 0,
                               bytes: OutputFile.size(name), skipped: true)
            }
            output = name
        }
        let response = try await pipeline.encodedImage(for: request, as: encoding)
        let image = response.image
        let path: String
        if let output {
            path = output
        } else {
            path = try await claim(input: input, stem: stem, format: image.format, size: PixelSize(width: image.width, height: image.height))
        }
        let (limits, placeholder) = (limits, placeholder)
        // Blocking: the write, and the placeholder (the thumbnail decoded again, reduced to the hash).
        let made = try await BlockingExecutor.shared.run { () throws -> String? in
            try OutputFile.write(image.data, to: path)
            return try placeholder.map { try image.placeholder($0, limits: limits) }
        }
        var outcome = Outcome(output: path, width: image.width, height: image.height, bytes: image.data.count,
                              cached: response.cacheType == .disk)
        if let placeholder, let made { outcome.placeholder = (placeholder, made) }
        outcome.crop = await pipeline.facePlacement(for: request)
        outcome.choice = image.choice
        outcome.ignoredProfile = image.ignoredProfile
        return outcome
    }

    /// The pipeline request for `input`, and its bytes when they were read here: a download, or a
    /// file whose header --skip-existing needs (read once, through the pipeline's loader: it may
    /// be a pipe). Other files are read by the pipeline when it makes the thumbnail.
    private func request(for input: String) async throws -> (ImageRequest, Data?) {
        let source: ImageRequest.Source
        var read: Data?
        if let remote, RemoteInputs.isURL(input) {
            let data = try await remote.data(at: input)
            source = .data(id: keepsResults ? "sha256:" + DataCache.digest(of: data) : input, load: { data })
            read = data
        } else if skipExisting {
            var file = ImageRequest(path: input)
            file.options.insert(.disableDiskCache)  // the file, not a copy in the cache
            let data = try await pipeline.data(for: file)
            source = .data(id: file.source.id, load: { data })
            read = data
        } else {
            source = .file(input)
        }
        var request = try recipe.request(for: source, limits: limits, watermark: watermark)
        if !keepsResults { request.options.insert(.disableDiskCache) }
        return (request, read)
    }

    /// The output path for this input, reserved for it in this run.
    private func claim(input: String, stem: String, format: ImageFormat, size: PixelSize) async throws -> String {
        let output = URL(fileURLWithPath: folder)
            .appendingPathComponent(template.fileName(stem: stem, format: format, size: size)).path
        if let earlier = await claims.claim(output, for: input) {
            throw ImagingError(.io, "its output \(output) is already the output of \(earlier)")
        }
        return output
    }
}

/// Output paths already taken in this run, so that no input overwrites another's output.
///
/// Inputs that could want the same path (the same `{name}`: the template always has it) settle it
/// in the order the run takes them, whatever order their work ends in: an input claiming a path
/// first waits until every earlier input of its name has claimed one or failed. Then the same
/// input wins with one lane or several, sharded or not; inputs of other names never wait.
final class OutputClaims: Sendable {
    private struct State {
        var taken: [String: String] = [:]
        var settled: Set<String> = []
    }

    private let state = Locked(State())
    /// For each input, the inputs of its name the run takes before it.
    private let earlierRivals: [String: [String]]

    /// Claims for a run that takes `inputs` in this order, named by `stems` (one for each).
    init(inputs: [String], stems: [String]) {
        var seen: [String: [String]] = [:], rivals: [String: [String]] = [:]
        for (input, stem) in zip(inputs, stems) where rivals[input] == nil {
            rivals[input] = seen[stem] ?? []
            seen[stem, default: []].append(input)
        }
        earlierRivals = rivals
    }

    /// nil when `output` was free (it is now `input`'s), else the input that has it.
    func claim(_ output: String, for input: String) async -> String? {
        let rivals = earlierRivals[input] ?? []
        // Rare (two inputs of one name in one run) and short (the earlier one's own work): polled.
        while !rivals.isEmpty, !state.withLock({ state in rivals.allSatisfy(state.settled.contains) }) {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return state.withLock { state in
            state.settled.insert(input)
            if let earlier = state.taken[output] { return earlier }
            state.taken[output] = input
            return nil
        }
    }

    /// `input` is done, with or without a claim: the inputs of its name after it may go on.
    func settle(_ input: String) {
        state.withLock { _ = $0.settled.insert(input) }
    }
}
