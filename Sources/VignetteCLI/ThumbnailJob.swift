#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Vignette
import VignetteSupport

/// Makes one input's thumbnail file through the run's `ImagePipeline`: the encoded thumbnail comes
/// from its disk cache (`--cache`) or is made in one libvips pass (decode, shrink-on-load, resize,
/// encode; with operations, their processors run before the encode), then written under the name
/// its format and size give. Skips inputs whose output exists when asked.
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
    }

    let pipeline: ImagePipeline
    /// What every input is made into: the operations, the format and its quality.
    let recipe: ImageRecipe
    /// The recipe's thumbnail and the processors after it.
    let plan: RecipePlan
    /// `--watermark`'s image, decoded once.
    var watermark: ImageRecipe.WatermarkImage?
    let folder: String
    let template: OutputTemplate
    let skipExisting: Bool
    let claims: OutputClaims
    /// Loads http(s) inputs; nil when there are none.
    let remote: RemoteInputs?
    /// Downloaded inputs are named in the cache by their bytes' SHA-256 (so a URL whose image
    /// changed is made again); files by path, size and modification time (the pipeline's file id).
    let keysDownloadsByContent: Bool
    /// With `--placeholder`: the kind of placeholder string to add to each written thumbnail's report.
    var placeholder: PlaceholderKind?

    var limits: DecodingLimits { pipeline.configuration.decodingLimits }
    var thumbnail: ThumbnailOptions { plan.thumbnail }

    /// The recipe's encoding: `--format`, or for `auto` JPEG and `--alpha-format` for images with
    /// alpha; its id names every setting in the cache key.
    func encoding() throws -> OutputEncoding { try recipe.encoding().encoding }

    func run(input: String, stem: String) throws -> Outcome {
        let (request, read) = try request(for: input)
        if let animated = try animatedOutcome(input: input, stem: stem, read: read) { return animated }
        var output: String?
        // With --skip-existing the output's name must be known before any work: read the header.
        if skipExisting {
            let info = try ImageDecoder(limits: limits).probe(read ?? Data())
            let hasAlpha = info.hasAlpha
            let name = try claim(
                input: input, stem: stem,
                format: recipe.outputFormat(hasAlpha: hasAlpha),
                size: plan.outputSize(forThumbnailOf: Thumbnailer(options: thumbnail, limits: limits).outputSize(for: info)))
            if OutputFile.exists(name) {
                let existing = try? ImageDecoder().probe(fileAt: name)
                return Outcome(output: name, width: existing?.width ?? 0, height: existing?.height ?? 0,
                               bytes: OutputFile.size(name), skipped: true)
            }
            output = name
        }
        let (pipeline, encoding) = (pipeline, try encoding())
        let response = try AsyncBridge.wait { () async throws(ImagePipelineError) -> EncodedResponse in
            try await pipeline.encodedImage(for: request, as: encoding)
        }.mapError(RemoteInputs.imagingError).get()
        let image = response.image
        let path = try output ?? claim(input: input, stem: stem, format: image.format, size: PixelSize(width: image.width, height: image.height))
        try OutputFile.write(image.data, to: path)
        var outcome = Outcome(output: path, width: image.width, height: image.height, bytes: image.data.count,
                              cached: response.cacheType == .disk)
        if let placeholder {
            // From the thumbnail just written (small already): decoded again, reduced to the hash.
            outcome.placeholder = (placeholder, try ImageDecoder(limits: limits).decode(image.data).placeholder(placeholder))
        }
        return outcome
    }

    /// The pipeline request for `input`, and its bytes when they were read here: a download, or a
    /// file whose header --skip-existing needs (read once: it may be a pipe). Other files are read
    /// by the pipeline's loader.
    private func request(for input: String) throws -> (ImageRequest, Data?) {
        guard let remote, RemoteInputs.isURL(input) else {
            guard skipExisting else { return (try request(.file(input)), nil) }
            let data = try InputFile.read(input, limits: limits)
            return (try request(.data(id: ImageRequest.Source.file(input).id, load: { data })), data)
        }
        let data = try remote.data(at: input)
        let id = keysDownloadsByContent ? "sha256:" + DataCache.digest(of: data) : input
        return (try request(.data(id: id, load: { data })), data)
    }

    /// The recipe's request for `source`, as the server and the library make it.
    private func request(_ source: ImageRequest.Source) throws -> ImageRequest {
        try recipe.request(for: source, limits: limits, watermark: watermark)
    }

    /// The output path for this input, reserved for it in this run.
    private func claim(input: String, stem: String, format: ImageFormat, size: PixelSize) throws -> String {
        let output = URL(fileURLWithPath: folder)
            .appendingPathComponent(template.fileName(stem: stem, format: format, size: size)).path
        if let earlier = claims.claim(output, for: input) {
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
    func claim(_ output: String, for input: String) -> String? {
        let rivals = earlierRivals[input] ?? []
        // Rare (two inputs of one name in one run) and short (the earlier one's own work): polled.
        while !rivals.isEmpty, !state.withLock({ state in rivals.allSatisfy(state.settled.contains) }) {
            usleep(1_000)
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
