import Vignette
import VignetteHTTP

extension ImagePipeline {
    /// The one pipeline of a `vignette` run, through which every input goes: files read by a
    /// `FileDataLoader` within `limits`, or with URL inputs by `loader` (an `HTTPDataLoader` held
    /// to the same `limits`, the file loader its fallback); no memory caches (each input is made
    /// once); `jobs` decodes, processings and encodes at once.
    ///
    /// `cacheFolder` (`--cache`, or a run's temporary download folder) keeps, under the
    /// `.automatic` policy, the encoded results (thumbnails and animations alike: requests with
    /// processing) and the downloads (requests without processing); never a copy of a file input.
    /// `faceModel` (`--face-model`) is the YuNet model `--gravity face` crops find faces with.
    static func command(
        jobs: Int = 1, limits: DecodingLimits, loader: HTTPDataLoader? = nil, cacheFolder: String? = nil, faceModel: String? = nil
    ) throws -> ImagePipeline {
        var configuration = ImagePipeline.Configuration(
            dataLoader: loader ?? FileDataLoader(limits: limits), imageCache: nil,
            dataCache: try cacheFolder.map { try DataCache(path: $0) }, dataCachePolicy: .automatic, decodingLimits: limits)
        configuration.encodedImageCache = nil
        // Each lane's read or download, and the prefetcher's downloads beside them.
        configuration.loadingConcurrency = jobs + 1 + (loader == nil ? 0 : RemoteInputs.prefetchConcurrency)
        configuration.decodingConcurrency = jobs
        configuration.processingConcurrency = jobs
        configuration.encodingConcurrency = jobs
        if let faceModel {
            do {
                configuration.faceDetector = try FaceDetector(modelPath: faceModel)
            } catch {
                throw CommandFailure("--face-model: \(error.message)")
            }
        }
        return ImagePipeline(configuration: configuration)
    }
}
