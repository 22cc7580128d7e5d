#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A thumbnail stored inside an image file: a HEIF thumbnail item or the JPEG EXIF (IFD1) thumbnail.
struct EmbeddedThumbnail {
    enum Kind: String { case heif, exif }

    let kind: Kind
    /// Size as stored (for EXIF, before the main image's orientation is applied).
    let size: PixelSize
    private let decodeBody: () throws(ImagingError) -> Image

    /// Decodes the thumbnail's pixels.
    func decode() throws(ImagingError) -> Image { try decodeBody() }

    /// The HEIF thumbnail items of the primary image, smallest first.
    static func heif(in data: Data, limits: DecodingLimits) throws(ImagingError) -> [EmbeddedThumbnail] {
        let container = try HEIFContainer(data: data, maximumSide: limits.maxPixels)
        let primary = try container.primaryImage()
        return primary.thumbnails()
            .map { item in
                EmbeddedThumbnail(kind: .heif, size: item.size) { () throws(ImagingError) in try item.decode() }
            }
            .sorted { $0.size.width * $0.size.height < $1.size.width * $1.size.height }
    }

    /// The JPEG EXIF thumbnail libvips found in the header ("jpeg-thumbnail-data"), when it is a
    /// JPEG libvips can read within `limits` (its header may declare any size).
    static func exif(of header: Image, limits: DecodingLimits) -> EmbeddedThumbnail? {
        guard let bytes = header.blob(named: "jpeg-thumbnail-data"),
            let source = try? LoadedSource(data: bytes, limits: limits), source.format == .jpeg,
            let thumbnailHeader = try? source.load(failOn: limits.failOn),
            (try? limits.check(DecodePlan.full(source, thumbnailHeader).cost)) != nil
        else { return nil }
        let size = PixelSize(width: thumbnailHeader.width, height: thumbnailHeader.height)
        return EmbeddedThumbnail(kind: .exif, size: size) { () throws(ImagingError) in
            try thumbnailHeader.materialized()
        }
    }
}
