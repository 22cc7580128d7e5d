internal import CVignetteResize
internal import CVignetteTurboJPEG
internal import CVignetteVips

/// A JPEG's pixels as it stores them: a luma plane and, unless it is greyscale, two chroma planes
/// at its chroma subsampling (4:2:0 chroma planes are half as wide and half as high), 8 bits a
/// sample, in one buffer, each plane's rows packed without padding.
///
/// The planar JPEG route resizes each plane on its own with `LanczosReducer`'s C reducer: Lanczos
/// is linear, so resizing Y, Cb and Cr is resizing RGB up to rounding, and the chroma planes, a
/// quarter of the luma's size at 4:2:0, cost a quarter as much; nothing is converted to RGB and
/// back, or upsampled and downsampled again, on the way to a JPEG.
struct YCbCrPlanes: Sendable {
    /// The luma plane's size: the image's.
    let width: Int
    let height: Int
    /// TurboJPEG's `TJSAMP_` value.
    let subsampling: Int32
    /// How many luma pixels the picture really spans: `width` × `height`, except after a DCT-scaled
    /// decode, whose last pixels stand for partial blocks (2725 pixels at 1/8 are 340.625 wide,
    /// stored as 341): what the resize maps from, so the result is not stretched.
    var extent: (width: Double, height: Double)
    /// Every plane, one after another.
    private(set) var bytes: [UInt8]

    /// Planes of `width` × `height` at `subsampling`, their bytes not yet written: whoever makes
    /// planes (libjpeg's decode, the reducer) writes every byte of every plane, padding included,
    /// so the megabytes are not zeroed first.
    init(width: Int, height: Int, subsampling: Int32) {
        self.width = width
        self.height = height
        self.subsampling = subsampling
        extent = (Double(width), Double(height))
        bytes = []
        let total = (0..<planeCount).reduce(0) { $0 + planeSize($1).width * planeSize($1).height }
        bytes = [UInt8](unsafeUninitializedCapacity: total) { _, count in count = total }
    }

    var isGrey: Bool { subsampling == Int32(TJSAMP_GRAY.rawValue) }

    /// 1 for greyscale, else 3 (Y, Cb, Cr).
    var planeCount: Int { isGrey ? 1 : 3 }

    /// The size of plane `index` (0 is luma), as libjpeg lays it out (`tjPlaneWidth`, `tjPlaneHeight`).
    func planeSize(_ index: Int) -> (width: Int, height: Int) {
        (Int(tjPlaneWidth(Int32(index), Int32(width), subsampling)), Int(tjPlaneHeight(Int32(index), Int32(height), subsampling)))
    }

    private func planeOffset(_ index: Int) -> Int {
        (0..<index).reduce(0) { $0 + planeSize($1).width * planeSize($1).height }
    }

    /// Calls `body` with a pointer to each plane and each plane's stride (3 of each, unused ones nil/0).
    func withPlanePointers<R>(
        _ body: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, UnsafeMutablePointer<Int32>) -> R
    ) -> R {
        bytes.withUnsafeBufferPointer { buffer in
            var pointers: [UnsafePointer<UInt8>?] = [nil, nil, nil]
            var strides: [Int32] = [0, 0, 0]
            for index in 0..<planeCount {
                pointers[index] = buffer.baseAddress.map { $0 + planeOffset(index) }
                strides[index] = Int32(planeSize(index).width)
            }
            return pointers.withUnsafeMutableBufferPointer { p in
                strides.withUnsafeMutableBufferPointer { s in body(p.baseAddress!, s.baseAddress!) }
            }
        }
    }

    /// `withPlanePointers` for writing into the planes.
    mutating func withMutablePlanePointers<R>(
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int32>) -> R
    ) -> R {
        let layout = (0..<3).map { $0 < planeCount ? (planeOffset($0), Int32(planeSize($0).width)) : (0, 0) }
        let count = planeCount
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var pointers: [UnsafeMutablePointer<UInt8>?] = [nil, nil, nil]
            var strides: [Int32] = [0, 0, 0]
            for index in 0..<count {
                pointers[index] = buffer.baseAddress.map { $0 + layout[index].0 }
                strides[index] = layout[index].1
            }
            return pointers.withUnsafeMutableBufferPointer { p in
                strides.withUnsafeMutableBufferPointer { s in body(p.baseAddress!, s.baseAddress!) }
            }
        }
    }

    /// The planes of a `width` × `height` image at `subsampling` (4:4:4 or 4:2:0; greyscale stays
    /// greyscale): each plane resampled with Vignette's Lanczos-3 reducer
    /// (`vgn_lanczos3_resize_scaled`, one band), output rows split between `threads` threads (1-4).
    /// Chroma goes from its own resolution straight to the output's: at 4:4:4 the thumbnail keeps
    /// all the colour detail the source has (a 4:2:0 source reduced by less than 2 has chroma finer
    /// than a 4:2:0 result could hold); at 4:2:0 it is what a JPEG encoder would have kept.
    ///
    /// libjpeg pads planes to whole MCUs (a 4:2:0 luma plane has even sides) and an odd-sized
    /// image's chroma covers half a luma pixel more than the picture: each plane is read only over
    /// the picture's extent (rounded up), and maps with the luma's ratio times its output
    /// subsampling factor over its input one, so the planes stay aligned as JPEG's centred chroma
    /// siting has them.
    func resized(
        toWidth width: Int, height: Int, subsampling target: Int32, threads: Int,
        implementation: LanczosReducer.Implementation = .automatic
    ) throws(ImagingError) -> YCbCrPlanes {
        // A source no larger than the box, at the subsampling asked for: the reducer would copy
        // every sample through its kernel (at scale 1 it is the identity), so the planes are the
        // result. Not when a plane has padding past the picture, which the reducer fills from the
        // edge rather than keeping libjpeg's.
        if width == self.width, height == self.height, isGrey || target == subsampling,
            extent == (Double(width), Double(height)),
            (0..<planeCount).allSatisfy({ planeSize($0) == pictureExtent($0) })
        {
            return self
        }
        var output = YCbCrPlanes(width: width, height: height, subsampling: isGrey ? subsampling : target)
        let xScale = extent.width / Double(width), yScale = extent.height / Double(height)
        let outputFactors = (0..<planeCount).map { output.factors($0) }
        let count = planeCount
        let inputs = (0..<count).map { index in
            (offset: planeOffset(index), stride: planeSize(index).width, extent: pictureExtent(index), factors: factors(index))
        }
        let outputs = (0..<count).map { (offset: output.planeOffset($0), size: output.planeSize($0)) }
        let status: Int32 = bytes.withUnsafeBufferPointer { source in
            output.bytes.withUnsafeMutableBufferPointer { target in
                guard let source = source.baseAddress, let target = target.baseAddress else { return -1 }
                for index in 0..<count {
                    let input = inputs[index], out = outputs[index]
                    let status = vgn_lanczos3_resize_scaled(
                        source + input.offset, Int32(input.extent.width), Int32(input.extent.height), input.stride,
                        target + out.offset, Int32(out.size.width), Int32(out.size.height), out.size.width,
                        xScale * Double(outputFactors[index].horizontal) / Double(input.factors.horizontal),
                        yScale * Double(outputFactors[index].vertical) / Double(input.factors.vertical),
                        1, 0, implementation.cValue, Int32(min(4, max(1, threads))))
                    if status != 0 { return status }
                }
                return 0
            }
        }
        guard status == 0 else {
            throw ImagingError(
                status == -2 ? .limitExceeded : .invalidArgument,
                "Lanczos 3 resample of \(self.width)x\(self.height) planes to \(width)x\(height): " + (status == -2 ? "out of memory" : "arguments refused"))
        }
        return output
    }

    /// Plane `index`'s subsampling factors against the luma plane (1 or 2, 4 for 4:1:1's width),
    /// read off libjpeg's plane sizes for a size that all divide.
    private func factors(_ index: Int) -> (horizontal: Int, vertical: Int) {
        let unit: Int32 = 1 << 12
        return (Int(unit / tjPlaneWidth(Int32(index), unit, subsampling)), Int(unit / tjPlaneHeight(Int32(index), unit, subsampling)))
    }

    /// The part of plane `index` the picture covers, each side rounded up: the luma plane's is
    /// the image's size; a chroma plane's is the image's divided by its subsampling factors.
    private func pictureExtent(_ index: Int) -> (width: Int, height: Int) {
        let (horizontal, vertical) = factors(index)
        return ((width + horizontal - 1) / horizontal, (height + vertical - 1) / vertical)
    }

    /// The planes turned upright as EXIF orientation `orientation` (1–8) says, each plane as
    /// `vips_autorot` turns an image (`vgn_orient_plane`); width and height swap for 5–8. 4:2:0 and
    /// 4:4:4 planes stay so when transposed; planes at another subsampling are not turned (nil).
    func oriented(_ orientation: Int) -> YCbCrPlanes? {
        guard (2...8).contains(orientation) else { return orientation == 1 ? self : nil }
        let transposes = orientation >= 5
        guard !transposes || isGrey || subsampling == Int32(TJSAMP_420.rawValue) || subsampling == Int32(TJSAMP_444.rawValue)
        else { return nil }
        var output = YCbCrPlanes(
            width: transposes ? height : width, height: transposes ? width : height, subsampling: subsampling)
        // The output axes the turn reverses; 4:2:0 chroma reversed along an odd luma length is
        // moved back by half a sample (`vgn_shift_half_sample`).
        let reversesRows = [2, 3, 6, 7].contains(orientation), reversesColumns = [3, 4, 7, 8].contains(orientation)
        let at420 = subsampling == Int32(TJSAMP_420.rawValue)
        let shiftRows = at420 && reversesRows && output.width % 2 == 1
        let shiftColumns = at420 && reversesColumns && output.height % 2 == 1
        let layout = (0..<planeCount).map {
            (offset: planeOffset($0), size: planeSize($0), outOffset: output.planeOffset($0), outSize: output.planeSize($0))
        }
        bytes.withUnsafeBufferPointer { source in
            output.bytes.withUnsafeMutableBufferPointer { target in
                guard let source = source.baseAddress, let target = target.baseAddress else { return }
                for (index, plane) in layout.enumerated() {
                    let out = target + plane.outOffset
                    let (w, h) = (Int32(plane.outSize.width), Int32(plane.outSize.height))
                    if index == 0 {
                        // The luma plane is padded to whole chroma samples past the picture: the
                        // picture is turned, the padding made again from its new edges.
                        vgn_orient_plane(
                            source + plane.offset, Int32(width), Int32(height), plane.size.width, out, plane.outSize.width,
                            Int32(orientation))
                        vgn_pad_plane(out, Int32(output.width), Int32(output.height), plane.outSize.width, w, h)
                        continue
                    }
                    vgn_orient_plane(
                        source + plane.offset, Int32(plane.size.width), Int32(plane.size.height), plane.size.width, out,
                        plane.outSize.width, Int32(orientation))
                    if shiftRows { vgn_shift_half_sample(out, w, h, 1) }
                    if shiftColumns { vgn_shift_half_sample(out, w, h, 0) }
                }
            }
        }
        return output
    }

    /// The planes as an in-memory 8-bit sRGB (or greyscale) image with `header`'s metadata
    /// (resolution, …) but its ICC profile: libjpeg-turbo upsamples the chroma and converts (`tjDecodeYUVPlanes`).
    /// `turned` is the EXIF orientation the planes were turned upright by (`oriented`): the image
    /// then carries no orientation, and its resolutions swap when the turn transposed it, as
    /// `vips_autorot` leaves an image.
    ///
    /// With `transform` (an RGB one; `header` is then sRGB as the planar route takes it), the
    /// pixels are converted through it in the same buffer as soon as they are made.
    func image(
        withMetadataOf header: Image, turned: Int = 1, converting transform: SRGBTransforms.Transform? = nil
    ) throws(ImagingError) -> Image {
        guard header.bands == planeCount, transform == nil || planeCount == 3 else {
            throw ImagingError(.invalidArgument, "planes of \(planeCount) do not fit a \(header.bands)-band image")
        }
        let xres = vips_image_get_xres(header.pointer), yres = vips_image_get_yres(header.pointer)
        let (width, height) = (self.width, self.height)
        let result = try Image(
            width: width, height: height, bands: planeCount, header: header, resolution: turned >= 5 ? (yres, xres) : (xres, yres)
        ) { output throws(ImagingError) in
            try TurboJPEG.interleaved(self, into: output)
            guard let transform, let pixels = output.baseAddress else { return }
            for row in 0..<height {
                transform.convert(pixels + row * width * 3, into: pixels + row * width * 3, count: width)
            }
        }
        // The planes' pixels are read as they are: a profile of `header`'s is not theirs to carry
        // (taken off in place: the image is this function's own, and stays a memory image).
        vips_image_remove(result.pointer, "icc-profile-data")
        if turned != 1 { vips_autorot_remove_angle(result.pointer) }
        return result
    }
}
