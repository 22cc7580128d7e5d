/// Why an `ImageTask` did not produce an image.
public enum ImagePipelineError: Error, Sendable, CustomStringConvertible {
    /// The task was cancelled.
    case cancelled
    /// `ImagePipeline.invalidate()` was called.
    case pipelineInvalidated
    /// `returnCacheDataDontLoad` was set and the caches had nothing.
    case dataMissingInCache
    /// The request asks for what cannot be made (a thumbnail box without pixels or over the
    /// largest side, a zoom or blur out of range): found before any work, the source not read.
    case invalidRequest(ImagingError)
    /// The data loader failed with `error` (an `HTTPLoadingError` from VignetteHTTP's loader, an
    /// `ImagingError` for a file over the limits, a `DataLoadingError` …).
    case dataLoadingFailed(any Error)
    /// Decoding failed (bad bytes, a limit, …).
    case decodingFailed(ImagingError)
    /// A processor failed with the error it threw (an `ImagingError` from the built-in ones, or a
    /// custom processor's own error type), named by its `identifier`.
    case processingFailed(processor: String, any Error)
    /// Encoding a result failed (`encodedImage(for:as:)`: bad options, a limit, an encoder missing).
    case encodingFailed(ImagingError)

    /// The imaging failure underneath, whichever stage it came from (a loader's `ImagingError`
    /// included): one place to branch on `ImagingError.Kind` without a nested switch.
    public var imagingError: ImagingError? {
        switch self {
        case .invalidRequest(let error), .decodingFailed(let error), .encodingFailed(let error): error
        case .dataLoadingFailed(let error), .processingFailed(_, let error): error as? ImagingError
        case .cancelled, .pipelineInvalidated, .dataMissingInCache: nil
        }
    }

    /// What failed, with the underlying library's message.
    public var description: String {
        switch self {
        case .cancelled: "cancelled"
        case .pipelineInvalidated: "the pipeline was invalidated"
        case .dataMissingInCache: "not in the cache, and loading was not allowed"
        case .invalidRequest(let error): "invalid request: \(error.message)"
        case .dataLoadingFailed(let error): "loading failed: \((error as? ImagingError)?.message ?? "\(error)")"
        case .decodingFailed(let error): "decoding failed: \(error.message)"
        case .processingFailed(let processor, let error): "\(processor) failed: \((error as? ImagingError)?.message ?? "\(error)")"
        case .encodingFailed(let error): "encoding failed: \(error.message)"
        }
    }

    static func wrapping(_ error: any Error) -> ImagePipelineError {
        if let error = error as? ImagePipelineError { return error }
        if error is CancellationError { return .cancelled }
        if let error = error as? ImagingError { return .decodingFailed(error) }
        return .dataLoadingFailed(error)
    }
}
