import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Vignette
import VignetteImgproxy
import VignetteHTTP

/// `vignette thumbnail INPUT... --size N|WxH --out DIR`: a thumbnail file in DIR for each input.
struct ThumbnailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make thumbnails of images (files, URLs, folders, globs) into a folder.",
        discussion: """
            Writes DIR/<input name without extension>.<format extension> for each input (see --name); inputs whose \
            names differ only in their extension (photo.gif, photo.webp) keep it (photo.gif.png, photo.webp.png). \
            A folder stands for its images, recursively; an http(s) URL is downloaded once however often it is given \
            (with --cache, the download is kept there too). s3://BUCKET/KEY is an object (?versionId=V for a version; \
            the key percent-encoded as in any URL), s3://BUCKET/PREFIX/ (or ending in *) the images listed under \
            the prefix (see --s3-endpoint). A failed input gets one line on standard error and the \
            exit status is 1; the other inputs are still written. No partial output file is ever left behind. \
            A file name with control characters (a newline, an escape) is shown with them escaped (\\n, \\x1b), so each \
            failure stays one line. Only regular files and pipes are read: a named pipe with no writer, a device or a \
            socket is refused at once. \
            Ctrl-C (SIGINT) or SIGTERM stops taking inputs, lets those in flight finish (downloads under way are \
            stopped), reports what was done and exits 128 + the signal: 130 after Ctrl-C, 143 after SIGTERM; a second \
            signal ends it at once. \
            Exit status: 0 when every input succeeded, 1 when any failed, 2 for a usage error or when the run cannot \
            start (the output folder cannot be created: one line names it and the system's reason), 130 or 143 when \
            interrupted. \
            Operations: --trim and --crop come before the resize, --dpr multiplies the box, --gravity places a cover \
            crop; then, after the resize and in this order, --rotate, --flip, --flop, --sharpen, --pixelate, \
            --background (transparency flattened onto it), --extend (padded to the box), --padding and --watermark. \
            --options takes an imgproxy processing options string instead (or as well: the flags given apply over \
            it), so a script makes exactly what a `vignette serve` URL with those options would.
            """)

    @Argument(help: "Image files, http(s) URLs, s3:// objects or prefixes, folders (their images, recursively) or quoted glob patterns.")
    var inputs: [String] = []

    @Option(help: ArgumentHelp("The box: N for N×N, or WxH (required unless --options sets a size).", valueName: "N|WxH"))
    var size: BoxSize?

    @Option(help: ArgumentHelp("imgproxy processing options, as in a server URL: 'rs:fill:300:200/g:sm/q:75'.", valueName: "OPTIONS"))
    var options: String?

    @Option(help: ArgumentHelp("The output folder (created when missing).", valueName: "DIR"))
    var out: String

    @Option(help: "How the image fits the box: inside (the default), cover (cropped), fill (stretched) or auto (cover when image and box are both landscape or both portrait, else inside).")
    var fit: ThumbnailOptions.Fit?

    @Option(help: "Output format; auto (the default) is --alpha-format for images with alpha and JPEG otherwise (animated WebP for animated GIF and WebP inputs, see --frames); best writes each image in the smallest of the --accept formats.")
    var format: OutputFormatChoice?

    @Option(help: "For animated GIF and WebP inputs: all (the default) keeps every frame, the delays and the loop count (written as animated WebP, or GIF with --format gif); first writes a still of the first frame.")
    var frames: FrameSelection?

    @Option(help: "For PDF inputs: the page to render, counted from 0 (the first, by default).")
    var page: Int?

    @Option(help: "What --format auto writes for images with alpha: png, webp or avif.")
    var alphaFormat: AlphaFormatChoice = .png

    @Option(help: ArgumentHelp("Quality 1–100 for JPEG, WebP, HEIC, AVIF and JPEG XL; auto[:TARGET] searches each image for the lowest quality whose result scores at least TARGET (default 80) on SSIMULACRA2.", valueName: "Q|auto[:TARGET]"))
    var quality: QualityChoice?

    @OptionGroup(title: "Best format and auto quality")
    var search: SearchFlags

    @Option(help: ArgumentHelp("Gaussian blur of this standard deviation, in pixels of the thumbnail.", valueName: "SIGMA"))
    var blur: Double?

    @OptionGroup(title: "Operations (1–9 run after the resize, in that order)")
    var operations: OperationFlags

    @Option(help: ArgumentHelp("Output file name template: {name} {ext} {format} {width} {height}.", valueName: "TEMPLATE"))
    var name: OutputTemplate = OutputTemplate("{name}.{ext}")

    @Option(help: "Images to process in parallel (default: the number of cores).")
    var jobs: Int?

    @OptionGroup(title: "S3")
    var s3: S3Flags

    @Option(help: ArgumentHelp("The YuNet face model (face_detection_yunet_2022mar.onnx for OpenCV 4.6, _2023mar.onnx for 4.8 and later) that --gravity face finds faces with; without it such crops follow libvips' attention (env VIGNETTE_FACE_MODEL).", valueName: "FILE"))
    var faceModel: String?

    @Option(help: ArgumentHelp("Keep a disk cache in DIR between runs: unchanged inputs with the same options are not made again.", valueName: "DIR"))
    var cache: String?

    @Flag(help: "Leave inputs whose output file already exists alone.")
    var skipExisting = false

    @Flag(inversion: .prefixedNo, help: "Strip metadata (EXIF, XMP, IPTC) from JPEG and PNG outputs (--strip, the default) or keep it (--keep-metadata); a profile kept by --keep-profile is written either way.")
    var strip: Bool?

    @Flag(help: "Keep metadata in JPEG and PNG outputs (the same as --no-strip).")
    var keepMetadata = false

    @Flag(help: "Keep the input's ICC profile and its colours as they are, instead of converting them to sRGB (the default); the profile is written even with --strip. CMYK inputs and animations are always converted.")
    var keepProfile = false

    @Option(help: ArgumentHelp(
        "Make only shard K of N of the inputs, by a stable hash (FNV-1a) of each input's path relative to the folder given (or the path or URL as given): N processes with K = 0…N-1 (0-based, as Slurm's array and Kubernetes' completion indices are by default) make the whole batch between them. auto reads Slurm's SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (less SLURM_ARRAY_TASK_MIN), or Kubernetes' JOB_COMPLETION_INDEX with --shard-count or VIGNETTE_SHARD_COUNT (Kubernetes does not tell a pod the number of completions).",
        valueName: "K/N|auto"))
    var shard: String?

    @Option(help: ArgumentHelp("With --shard auto under a Kubernetes Indexed Job: the number of completions (or env VIGNETTE_SHARD_COUNT).", valueName: "N"))
    var shardCount: Int?

    @Flag(help: "Print a JSON report of every input and the totals on standard output.")
    var json = false

    @Option(help: "With --json, add each thumbnail's placeholder string: thumbhash (base64) or blurhash.")
    var placeholder: PlaceholderKind?

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input") }
        if case .fixed(let quality) = quality, !ImageRecipe.Ranges.quality.contains(quality) { throw ValidationError("--quality must be 1–100, got \(quality)") }
        if let blur, !(blur.isFinite && ImageRecipe.Ranges.blur.contains(blur)) {
            throw ValidationError("--blur must be 0–1000, got \(blur)")
        }
        if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs must be 1–256, got \(jobs)") }
        _ = try plan()
        _ = try shardSelection()
    }

    /// The recipe the flags make: `--options` first, then every flag given over it.
    func recipe() throws(CommandFailure) -> ImageRecipe {
        var recipe = ImageRecipe()
        if let options {
            do { recipe = try ImgproxyOptions().recipe(options) } catch { throw CommandFailure("--options: \(error.message)") }
        } else if size == nil {
            throw CommandFailure("give --size (or --options with a size)")
        }
        if let size {
            recipe.width = size.width
            recipe.height = size.height
        }
        if let fit { recipe.resizingType = fit.resizingType }
        if let format { recipe.format = format.format }
        recipe.alphaFormat = alphaFormat.format
        try search.apply(best: format == .best, quality: quality, to: &recipe)
        if let blur { recipe.blur = blur }
        if keepMetadata || strip == false { recipe.stripMetadata = false } else if strip == true { recipe.stripMetadata = true }
        if keepProfile { recipe.stripColourProfile = false }
        if let frames { recipe.frames = frames }
        if let page { recipe.page = page }
        try operations.apply(to: &recipe)
        return recipe
    }

    /// The recipe and its plan, checked against the run's limits: a value out of range, or a
    /// result over the budget (an enlarged or padded box), is one line naming it.
    func plan(limits: DecodingLimits = .untrusted) throws(CommandFailure) -> (recipe: ImageRecipe, plan: RecipePlan) {
        let recipe = try recipe()
        do {
            return (recipe, try recipe.plan(limits: limits))
        } catch {
            throw CommandFailure(Self.naming(error.message))
        }
    }

    /// The recipe's message with the value it names first written as the flag that sets it.
    static func naming(_ message: String) -> String {
        let flags = [("dpr", "--dpr"), ("extend", "--extend"), ("sharpen", "--sharpen"), ("blur", "--blur"), ("quality", "--quality")]
        guard let (name, flag) = flags.first(where: { message.hasPrefix($0.0 + " ") || message.hasPrefix($0.0 + ":") }) else {
            return message
        }
        return flag + message.dropFirst(name.count)
    }

    /// The `--shard` this process makes; nil for the whole batch. Its problems are thrown as they
    /// are (not as a `ValidationError`), so each is one line with no usage text after it: most come
    /// from a scheduler's environment, not from the command line.
    func shardSelection() throws(ShardSelection.Problem) -> ShardSelection? {
        if shardCount != nil, shard != "auto" { throw ShardSelection.Problem("--shard-count goes with --shard auto") }
        guard let shard else { return nil }
        return try ShardSelection.parse(shard, count: shardCount, environment: ServeCommand.environment)
    }

    func run() async throws {
        try OutputFile.makeDirectory(out)
        let limits = DecodingLimits.untrusted
        let loader = inputs.contains(where: RemoteInputs.isURL)
            ? HTTPDataLoader(limits: limits, configuration: HTTPDataLoader.Configuration(s3: try s3.configuration())) : nil
        let expansion = await InputExpansion.expand(inputs, lister: loader)
        // Output names are worked out over the whole batch, so a shard names its outputs as the
        // unsharded run would; then the other shards' inputs are left out before any work (inputs
        // sharing a name stay in one shard, which settles between them as the unsharded run does).
        let allStems = OutputTemplate.stems(for: expansion.files)
        let selection = try shardSelection()
        let mine = selection?.positions(keys: expansion.shardKeys, stems: allStems) ?? Array(expansion.files.indices)
        let problems = expansion.problems.filter { problem in
            guard let selection, let key = problem.shardKey else { return true }
            return selection.contains(key: key)
        }
        if let selection { Console.error("shard \(selection): \(mine.count) of \(expansion.files.count) inputs") }
        let files = mine.map { expansion.files[$0] }
        let stems = mine.map { allStems[$0] }
        let cores = CPUBudget.availableCores()
        // No more lanes than inputs; many images at once: one libvips thread each; one image at a
        // time (a single input, or --jobs 1): all cores on it.
        let jobCount = max(1, min(jobs ?? cores, files.count))
        ImagingRuntime.shareCores(cores, among: jobCount)
        // A run of images: each reuses the memory the one before freed (docs/performance.md,
        // "Sources at or below the box").
        ImagingRuntime.keepFreedMemoryForReuse()

        let (recipe, plan) = try plan(limits: limits)
        let watermark = try operations.watermarkImage(limits: limits)
        // Downloads need a disk cache to be fetched ahead into: without --cache, a folder for the run.
        let downloadFolder = loader != nil && cache == nil ? RemoteInputs.temporaryFolder() : nil
        let pipeline = try ImagePipeline.command(
            jobs: jobCount, limits: limits, loader: loader, cacheFolder: cache ?? downloadFolder,
            faceModel: faceModel ?? ProcessInfo.processInfo.environment["VIGNETTE_FACE_MODEL"])
        let remote = loader.map { _ in RemoteInputs(pipeline: pipeline, temporaryFolder: downloadFolder) }
        // Biggest files first: with several jobs, a large image last would leave the others idle.
        let order = files.indices.sorted { OutputFile.size(files[$0]) > OutputFile.size(files[$1]) }
        let inOrder = order.map { files[$0] }
        let claims = OutputClaims(inputs: inOrder, stems: order.map { stems[$0] })
        let job = ThumbnailJob(
            pipeline: pipeline, recipe: recipe, plan: plan, encoding: try ThumbnailJob.encoding(of: recipe), watermark: watermark,
            folder: out, template: name, skipExisting: skipExisting, claims: claims, remote: remote, keepsResults: cache != nil,
            placeholder: placeholder)

        let progress = ProgressBar(total: files.count)
        for problem in problems { progress.line(Console.failureLine(problem.input, problem.reason)) }
        let interrupt = Interrupt(onInterrupt: { remote?.stopDownloads() })
        await interrupt.install()
        let make: @Sendable (Int) async -> (Int, ThumbnailReport.Entry) = { position in
            remote?.prefetch(after: position, of: inOrder)
            let index = order[position]
            let started = ContinuousClock.now
            let result: ThumbnailReport.Result
            do {
                result = .written(try await job.run(input: files[index], stem: stems[index]))
            } catch {
                let reason = Console.reason(for: error)
                progress.line(Console.failureLine(files[index], reason))
                result = .failed(reason)
            }
            claims.settle(files[index])
            if case .failed = result { progress.advance(failed: true) } else { progress.advance(failed: false) }
            return (index, ThumbnailReport.Entry(input: files[index], result: result, milliseconds: (ContinuousClock.now - started).milliseconds))
        }
        // One lane more than the pipeline's decoding slots (`jobCount`): while a lane's image is
        // read, handed from stage to stage or written, the spare lane's image is already waiting
        // for the free slot, so no core idles between images. Inputs are taken in order; after a
        // signal none is taken, and those under way finish.
        let results = await withTaskGroup(of: (Int, ThumbnailReport.Entry).self) { group in
            var results = [ThumbnailReport.Entry?](repeating: nil, count: files.count)
            var next = 0
            while next < min(jobCount + 1, files.count) {
                let position = next
                group.addTask { await make(position) }
                next += 1
            }
            for await (index, entry) in group {
                results[index] = entry
                if next < files.count, !interrupt.isRequested {
                    let position = next
                    group.addTask { await make(position) }
                    next += 1
                }
            }
            return results.compactMap { $0 }
        }
        if let remote { await remote.finish() } else { await pipeline.flushDiskCache() }
        progress.finish()

        var report = ThumbnailReport()
        report.entries = problems.map { .init(input: $0.input, result: .failed($0.reason), milliseconds: 0) } + results
        report.interrupted = interrupt.isRequested
        report.shard = selection.map { ($0, expansion.files.count) }
        if json { print(report.json) }
        if let status = interrupt.exitStatus {
            Console.error("interrupted by \(interrupt.signalName): \(results.count) of \(files.count) inputs done, \(report.failed) failed")
            throw ExitCode(status)
        }
        if report.failed > 0 { throw ExitCode(1) }
    }
}
