#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImagePipeline {
    /// `encoded` (a JPEG result of `request`) with the gain map of `source` kept, when the source
    /// is a JPEG with one (`GainMapJPEG`): the gain map goes through the result's geometry
    /// (`GainMapGeometry`), is resized to the result's size times the source's gain-map ratio,
    /// written as a JPEG and appended as the MPF secondary image, the primary given its XMP/ISO
    /// segments and the index (`GainMapJPEG.keeping(in:result:limits:geometry:)`). Anything else comes back unchanged, byte
    /// for byte; a broken or lying gain map, or a geometry it cannot follow, is dropped with a
    /// warning in the log, never failing the result.
    func keepingGainMap(_ encoded: EncodedImage, source: Data, request: ImageRequest, limits: DecodingLimits) -> EncodedImage {
        guard encoded.format == .jpeg, GainMapJPEG.mayHaveGainMap(source) else { return encoded }
        do throws(ImagingError) {
            guard let container = try GainMapJPEG(source) else { return encoded }
            let orientation = try ImageDecoder(limits: limits).probe(source).orientation
            let geometry = GainMapGeometry(request: request, orientation: orientation, neutral: container.metadata?.neutralValue ?? 0)
            let data = try container.keeping(
                in: encoded.data, result: PixelSize(width: encoded.width, height: encoded.height), limits: limits, geometry: geometry.apply)
            return EncodedImage(data: data, format: .jpeg, width: encoded.width, height: encoded.height)
        } catch {
            logger.warning("gain map dropped", metadata: ["image": "\(request.effectiveImageID)", "reason": "\(error)"])
            return encoded
        }
    }
}

/// The geometry of a request replayed on its source's gain map scaled to the image's size: the
/// EXIF orientation, the thumbnail (fit, crop, zoom), the steps before it (crop) and after it
/// (rotate, flip, extend, padding). Steps that change only colours (blur, sharpen, pixelate,
/// flatten, watermark) are left out: a gain map holds gains. Steps that depend on the image's
/// content (trim, attention crops) cannot be followed and throw, so the gain map is dropped.
struct GainMapGeometry {
    let request: ImageRequest
    /// The source's EXIF orientation.
    let orientation: Int
    /// The gain-map value for no change, which paddings are filled with.
    let neutral: Double

    /// `gainMap` through the request's geometry, and whether it was transposed (a quarter turn in
    /// all: the result's width lies along the source's height).
    func apply(to gainMap: Image) throws(ImagingError) -> (image: Image, transposed: Bool) {
        var image = gainMap
        var transposed = false
        let orients = request.thumbnail?.autoOrient ?? request.processors.contains { $0 is ImageProcessors.AutoOrient }
        if orients {
            image = try image.oriented(orientation)
            transposed = orientation >= 5
        }
        if var thumbnail = request.thumbnail {
            guard thumbnail.crop.withoutFaces != .attention else { throw Self.unfollowable("an attention or faces crop") }
            thumbnail.blurSigma = 0
            image = try ImageProcessors.Thumbnail(options: thumbnail).process(image)
        }
        for processor in request.processors {
            switch processor {
            case is ImageProcessors.AutoOrient:
                continue
            case is ImageProcessors.Trim:
                throw Self.unfollowable("a trim")
            case let region as ImageProcessors.Region:
                guard region.anchor.withoutFaces != .attention else { throw Self.unfollowable("an attention or faces crop") }
                image = try region.process(image)
            case var thumbnail as ImageProcessors.Thumbnail:
                guard thumbnail.options.crop.withoutFaces != .attention else { throw Self.unfollowable("an attention or faces crop") }
                thumbnail.options.blurSigma = 0
                image = try thumbnail.process(image)
            case let rotate as ImageProcessors.Rotate:
                image = try rotate.process(image)
                if (rotate.degrees / 90) % 2 != 0 { transposed.toggle() }
            case let flip as ImageProcessors.Flip:
                image = try flip.process(image)
            case let extend as ImageProcessors.Extend:
                // The same step (its dpr and zoom scaling too), filled with the neutral gain.
                var neutralFill = extend
                (neutralFill.red, neutralFill.green, neutralFill.blue) = (neutral, neutral, neutral)
                image = try neutralFill.process(image)
            default:
                // Colour only, or a step of the caller's own: the result's size is checked after.
                continue
            }
        }
        return (image, transposed)
    }

    static func unfollowable(_ step: String) -> ImagingError {
        ImagingError(.unsupportedFormat, "the gain map cannot follow \(step), which depends on the image's content")
    }
}
