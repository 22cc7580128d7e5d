internal import CVignetteImageShims
internal import CVignetteVips

extension Image {
    /// The metadata blobs an image may carry, which it keeps in memory beside its pixels.
    static let metadataBlobNames = ["icc-profile-data", "exif-data", "xmp-data", "iptc-data", "jpeg-thumbnail-data"]

    /// Bytes a materialised image keeps alive: its pixels (`byteCount`), its metadata blobs (ICC
    /// profile, EXIF, XMP, IPTC, an embedded thumbnail; their lengths read with
    /// `vips_image_get_blob`, nothing copied) and libvips' header (`VipsImage`). What a memory
    /// cache counts for it.
    public var retainedByteCount: Int {
        var total = byteCount + MemoryLayout<VipsImage>.size
        for name in Self.metadataBlobNames where vips_image_get_typeof(pointer, name) != 0 {
            var data: UnsafeRawPointer?
            var length = 0
            if vgn_image_get_blob(pointer, name, &data, &length) != 0 { total += length }
        }
        return total
    }
}
