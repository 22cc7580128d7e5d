import Logging

/// What a decode tolerated and the pipeline logs as a warning, naming the image: the one place
/// such warnings are written. Today: an embedded ICC profile ignored because it cannot describe
/// the pixels (`ImageInfo.ignoredProfile`), as libvips ignores it.
struct DecodeWarnings: Sendable {
    let logger: Logger
    let imageID: String

    /// Logs `reason` when there is one.
    func ignoredProfile(_ reason: String?) {
        guard let reason else { return }
        logger.warning("ICC profile ignored", metadata: ["image": "\(imageID)", "reason": "\(reason)"])
    }
}

extension ImagePipeline {
    /// The warnings of `request`'s decode, logged with the pipeline's logger.
    func warnings(for request: ImageRequest) -> DecodeWarnings {
        DecodeWarnings(logger: logger, imageID: request.effectiveImageID)
    }
}
