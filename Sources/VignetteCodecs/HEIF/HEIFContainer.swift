#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteHeif
internal import CVignetteVips

/// A HEIF/AVIF file parsed by libheif (`heif_context_read_from_memory_without_copy`): boxes and
/// item properties only, no pixels. It owns the copy of the bytes libheif reads from.
final class HEIFContainer {
    let context: OpaquePointer
    private let bytes: UnsafeMutableRawBufferPointer

    init(data: Data, maximumSide: Int) throws(ImagingError) {
        try HEIFLibrary.load(.unsupportedFormat)
        guard let context = heif_context_alloc() else {
            throw ImagingError(.operationFailed, "heif_context_alloc failed")
        }
        self.context = context
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        data.copyBytes(to: bytes)
        heif_context_set_maximum_image_size_limit(context, Int32(clamping: maximumSide))
        try ImagingError.checkHEIF(
            heif_context_read_from_memory_without_copy(context, bytes.baseAddress, data.count, nil),
            "heif_context_read")
    }

    deinit {
        heif_context_free(context)
        bytes.deallocate()
    }

    func primaryImage() throws(ImagingError) -> HEIFItem {
        var handle: OpaquePointer?
        try ImagingError.checkHEIF(heif_context_get_primary_image_handle(context, &handle), "heif primary image")
        guard let handle else { throw ImagingError(.corruptData, "HEIF file has no primary image") }
        return HEIFItem(handle: handle, container: self)
    }
}

/// One image item (the primary image or a thumbnail) of a `HEIFContainer`.
final class HEIFItem {
    let handle: OpaquePointer
    private let container: HEIFContainer

    init(handle: OpaquePointer, container: HEIFContainer) {
        self.handle = handle
        self.container = container
    }

    deinit { heif_image_handle_release(handle) }

    /// Size after the item's transformations (rotation, mirroring, crop).
    var size: PixelSize {
        PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
    }

    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(handle) != 0 }

    /// The thumbnail items attached to this image, as libheif lists them.
    func thumbnails() -> [HEIFItem] {
        let count = Int(heif_image_handle_get_number_of_thumbnails(handle))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(handle, &ids, Int32(count)))
        return ids.prefix(listed).compactMap { id in
            var thumbnail: OpaquePointer?
            let error = heif_image_handle_get_thumbnail(handle, id, &thumbnail)
            guard error.code == heif_error_Ok, let thumbnail else { return nil }
            return HEIFItem(handle: thumbnail, container: container)
        }
    }

    /// Decodes the item to interleaved 8-bit RGB(A) with libheif (`heif_decode_image`, which
    /// applies the item's transformations) and hands the pixels to libvips.
    func decode() throws(ImagingError) -> Image {
        let alpha = hasAlpha
        var decoded: OpaquePointer?
        try ImagingError.checkHEIF(
            heif_decode_image(
                handle, &decoded, heif_colorspace_RGB,
                alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, nil),
            "heif_decode_image")
        guard let decoded else { throw ImagingError(.corruptData, "heif_decode_image returned no image") }
        defer { heif_image_release(decoded) }
        let width = Int(heif_image_get_width(decoded, heif_channel_interleaved))
        let height = Int(heif_image_get_height(decoded, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0,
            let plane = heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride)
        else {
            throw ImagingError(.corruptData, "decoded HEIF image has no interleaved plane")
        }
        let bands = alpha ? 4 : 3
        let rowBytes = width * bands
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBytes { target in
            guard let base = target.baseAddress else { return }
            for row in 0..<height {
                (base + row * rowBytes).copyMemory(from: plane.advanced(by: row * Int(stride)), byteCount: rowBytes)
            }
        }
        return try Image(pixels: PixelBuffer(width: width, height: height, bands: bands, bytes: bytes))
    }
}
