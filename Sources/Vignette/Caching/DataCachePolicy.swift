/// What the pipeline writes to the disk cache (`DataCache`) for a request.
///
/// Two kinds of entry can be stored: the *original data* (the bytes the data loader returned,
/// keyed by the image id) and the *encoded image* (the final image after thumbnailing and the
/// processors, encoded again, keyed by image id + thumbnail options + processor identifiers).
///
/// | policy               | without processors   | with processors            |
/// |----------------------|----------------------|----------------------------|
/// | `storeOriginalData`  | original             | original                   |
/// | `storeEncodedImages` | encoded              | encoded                    |
/// | `storeAll`           | original             | original and encoded       |
/// | `automatic`          | original             | encoded                    |
///
/// `storeAll` does not store an encoded copy of an unprocessed image: it would hold the same
/// picture as the original data, only re-encoded.
public enum DataCachePolicy: String, Sendable, CaseIterable {
    /// Store only the original data, whatever the processors; processed images are made again
    /// from it on each memory-cache miss.
    case storeOriginalData
    /// Store only encoded final images (even of requests without processors); the original data
    /// is never written.
    case storeEncodedImages
    /// Store the original data for every request, and the encoded final image as well when the
    /// request has processors.
    case storeAll
    /// Store the original data for requests without processors and the encoded final image for
    /// requests with processors (the default).
    case automatic

    /// Whether a request with (or without) processors stores the original data.
    public func storesOriginalData(hasProcessors: Bool) -> Bool {
        switch self {
        case .storeOriginalData, .storeAll: true
        case .storeEncodedImages: false
        case .automatic: !hasProcessors
        }
    }

    /// Whether a request with (or without) processors stores the encoded final image.
    public func storesEncodedImage(hasProcessors: Bool) -> Bool {
        switch self {
        case .storeOriginalData: false
        case .storeEncodedImages: true
        case .storeAll, .automatic: hasProcessors
        }
    }
}
