#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where video containers enter the decoders (`ImageDecoder`, `Thumbnailer`): bytes that
/// `VideoContainer` recognises are read by FFmpeg (`VideoPoster`) when the package is built with
/// its Video trait and `DecodingLimits.allowedInputs` holds `.video`; without the trait they are
/// refused as `.unsupportedFormat`, saying so. Everything else returns nil and goes to libvips.
enum VideoInput {
    /// The header of `data` when it is a video: the poster's size, the codec and the duration.
    static func info(_ data: Data, limits: DecodingLimits) throws(ImagingError) -> ImageInfo? {
        guard let format = try recognised(data, limits: limits) else { return nil }
        #if Video
        return try VideoPoster(data: data, format: format, limits: limits, cancellation: nil).info
        #else
        throw unavailable(format)
        #endif
    }

    /// The poster of `data` when it is a video: the frame at `second` (nil: the first), upright.
    static func poster(
        _ data: Data, at second: Double?, limits: DecodingLimits, cancellation: ImagingCancellation?
    ) throws(ImagingError) -> (image: Image, info: ImageInfo)? {
        guard let format = try recognised(data, limits: limits) else { return nil }
        #if Video
        let poster = try VideoPoster(data: data, format: format, limits: limits, cancellation: cancellation)
        return (try poster.decode(at: second), poster.info)
        #else
        throw unavailable(format)
        #endif
    }

    /// The container of `data`, once the limits allow video; nil when it is not a video.
    private static func recognised(_ data: Data, limits: DecodingLimits) throws(ImagingError) -> ImageFormat? {
        guard let format = VideoContainer.sniff(data) else { return nil }
        try limits.checkBytes(data.count)
        try limits.checkAllowed(format)
        return format
    }

    private static func unavailable(_ format: ImageFormat) -> ImagingError {
        ImagingError(.unsupportedFormat, "\(format) is a video container; this build of Vignette reads video only with its Video trait")
    }
}
