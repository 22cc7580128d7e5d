#if Video
internal import CVignetteFFmpeg

/// A decoded frame as an 8-bit sRGB image: libswscale converts any of FFmpeg's pixel formats
/// (4:2:0 to 4:4:4, 8 to 16 bits, RGB, alpha) to RGB24 or RGBA at the same size, with the frame's
/// own YUV matrix and range, straight into the image's memory.
enum VideoFrameConverter {
    static func image(of frame: VideoFrame) throws(ImagingError) -> Image {
        let width = Int(frame.pointer.pointee.width), height = Int(frame.pointer.pointee.height)
        let source = AVPixelFormat(rawValue: frame.pointer.pointee.format)
        guard width > 0, height > 0, av_pix_fmt_desc_get(source) != nil else {
            throw ImagingError(.corruptData, "the decoder gave a frame with no size or pixel format")
        }
        let alpha = VideoPoster.hasAlpha(source)
        let bands = alpha ? 4 : 3
        let flags = Int32(SWS_BICUBIC) | Int32(SWS_ACCURATE_RND) | Int32(SWS_FULL_CHR_H_INT)
        guard
            let scaler = sws_getContext(
                Int32(width), Int32(height), source, Int32(width), Int32(height), alpha ? AV_PIX_FMT_RGBA : AV_PIX_FMT_RGB24,
                flags, nil, nil, nil)
        else {
            throw ImagingError(.unsupportedFormat, "libswscale cannot convert \(String(cString: av_get_pix_fmt_name(source))) frames")
        }
        defer { sws_freeContext(scaler) }
        // The frame's matrix (BT.601 when it names none) and range; full-range RGB out.
        let space = frame.pointer.pointee.colorspace
        let matrix = space == AVCOL_SPC_UNSPECIFIED || space == AVCOL_SPC_RGB ? SWS_CS_DEFAULT : Int32(space.rawValue)
        let fullRange: Int32 = frame.pointer.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        if av_pix_fmt_desc_get(source).pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 {
            _ = sws_setColorspaceDetails(
                scaler, sws_getCoefficients(matrix), fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16)
        }
        return try Image.sRGB8(width: width, height: height, bands: bands) { output throws(ImagingError) in
            guard let base = output.baseAddress, output.count >= width * height * bands else {
                throw ImagingError(.operationFailed, "no memory for the \(width)x\(height) frame")
            }
            var planes: [UnsafeMutablePointer<UInt8>?] = [base.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var strides: [Int32] = [Int32(width * bands), 0, 0, 0]
            let rows = withUnsafePointer(to: &frame.pointer.pointee.data) { data in
                withUnsafePointer(to: &frame.pointer.pointee.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { slices in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { sliceStrides in
                            sws_scale(scaler, slices, sliceStrides, 0, Int32(height), &planes, &strides)
                        }
                    }
                }
            }
            guard rows == Int32(height) else {
                throw ImagingError(.operationFailed, "sws_scale converted \(rows) of \(height) rows")
            }
        }
    }
}
#endif
