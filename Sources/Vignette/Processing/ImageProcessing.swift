/// A step that turns one image into another, run by the pipeline on its processing threads.
///
/// `identifier` names the step and its parameters in disk-cache keys (it must be stable across
/// runs); `hashableIdentifier` does the same for memory keys and coalescing, compared without
/// building strings.
public protocol ImageProcessing: Sendable {
    func process(_ image: Image) throws(ImagingError) -> Image
    var identifier: String { get }
    /// Must wrap an immutable, `Sendable` value (the processor itself, or its identifier string).
    var hashableIdentifier: AnyHashable { get }
}

extension ImageProcessing where Self: Hashable {
    public var hashableIdentifier: AnyHashable { AnyHashable(self) }
}
