/// What the pipeline writes to the disk cache (`DataCache`) for a request: the one contract, which
/// the pipeline follows and the tests pin.
///
/// Two kinds of entry can be stored: the *original data* (the bytes the data loader returned,
/// keyed by the image id) and the *encoded image* (the final image after thumbnailing and the
/// processors, encoded again, keyed by image id + thumbnail options + processor identifiers; and
/// the results of `ImagePipeline.encodedImage(for:as:)`, keyed by the encoding as well). A request
/// *has processing* when it has processors or thumbnail options.
///
/// | policy               | without processing | with processing            |
/// |----------------------|--------------------|----------------------------|
/// | `storeOriginalData`  | original           | original                   |
/// | `storeEncodedImages` | nothing            | encoded                    |
/// | `storeAll`           | original           | original and encoded       |
/// | `automatic`          | original           | encoded                    |
///
/// An unprocessed image's final image is the original itself: no policy stores a re-encoded copy
/// of it (it would hold the same picture, with a second round of compression), so under
/// `storeEncodedImages` a request without processing is loaded again on every memory-cache miss.
/// Results of `encodedImage(for:as:)` count as processed: they are stored under every policy but
/// `storeOriginalData`.
public enum DataCachePolicy: String, Sendable, CaseIterable {
    /// Store only the original data, whatever the processing; processed images are made again
    /// from it on each memory-cache miss.
    case storeOriginalData
    /// Store only encoded final images of requests with processing; the original data is never
    /// written.
    case storeEncodedImages
    /// Store the original data for every request, and the encoded final image as well when the
    /// request has processing.
    case storeAll
    /// Store the original data for requests without processing and the encoded final image for
    /// requests with processing (the default).
    case automatic

    /// Whether a request with (or without) processing stores the original data.
    public func storesOriginalData(hasProcessing: Bool) -> Bool {
        switch self {
        case .storeOriginalData, .storeAll: true
        case .storeEncodedImages: false
        case .automatic: !hasProcessing
        }
    }

    /// Whether a request with (or without) processing stores the encoded final image.
    public func storesEncodedImage(hasProcessing: Bool) -> Bool {
        switch self {
        case .storeOriginalData: false
        case .storeEncodedImages, .storeAll, .automatic: hasProcessing
        }
    }
}
