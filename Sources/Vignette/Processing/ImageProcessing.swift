/// A step that turns one image into another, run by the pipeline on its processing threads.
///
/// `identifier` names the step and its parameters in disk-cache keys (it must be stable across
/// runs); `hashableIdentifier` does the same for memory keys and coalescing, compared without
/// building strings.
///
/// `process` may throw any error: the pipeline fails the task with
/// `ImagePipelineError.processingFailed(processor:_:)` carrying it as thrown, so a processor of your
/// own can throw your own error type and you can match it. The built-in processors throw
/// `ImagingError`.
public protocol ImageProcessing: Sendable {
    /// The processed image; runs on one of the pipeline's processing threads.
    func process(_ image: Image) throws -> Image
    /// The step and its parameters as a stable string, for disk-cache keys.
    var identifier: String { get }
    /// Must wrap an immutable, `Sendable` value (the processor itself, or its identifier string).
    var hashableIdentifier: AnyHashable { get }
}

extension ImageProcessing where Self: Hashable {
    /// The processor itself: its parameters are its identity.
    public var hashableIdentifier: AnyHashable { AnyHashable(self) }
}
