internal import CVignetteImageShims
internal import CVignetteVips

extension Image {
    /// The image cut to the largest centred circle (a square `min(width, height)` a side), outside
    /// transparent, with an antialiased edge. The mask is drawn in Swift and joined as alpha with
    /// `vips_bandjoin2` (or multiplied into existing alpha with `vips_multiply`).
    public func circleMasked() throws(ImagingError) -> Image {
        let side = min(width, height)
        let square = try cropped(toWidth: side, height: side, anchor: .centre)
        return try square.masked(by: Mask.roundedRectangle(width: side, height: side, radius: Double(side) / 2))
    }

    /// The image with its corners rounded to `radius` pixels, outside transparent.
    public func roundedCorners(radius: Double) throws(ImagingError) -> Image {
        guard radius.isFinite, radius >= 0 else {
            throw ImagingError(.invalidArgument, "corner radius must be a positive number, got \(radius)")
        }
        let r = min(radius, Double(min(width, height)) / 2)
        return try masked(by: Mask.roundedRectangle(width: width, height: height, radius: r))
    }

    /// `overlay` drawn over this image with its top-left corner at (`x`, `y`) (`vips_composite2`,
    /// blend mode over). The result has alpha when either image has.
    public func composited(with overlay: Image, x: Int, y: Int) throws(ImagingError) -> Image {
        let base = try standardizedToSRGB8().withColourBands()
        let top = try overlay.standardizedToSRGB8().withColourBands()
        let composed = try base.apply("vips_composite2") { base, out in
            vgn_composite_over(base, top.pointer, out, Int32(x), Int32(y))
        }
        let flat = try composed.apply("vips_cast") { vgn_cast_uchar($0, $1) }
        return base.hasAlpha || top.hasAlpha ? flat : try flat.apply("vips_extract_band") { vgn_extract_bands($0, $1, 0, 3) }
    }

    /// Multiplies `mask` (one 8-bit band, this image's size) into the alpha channel, adding one if needed.
    func masked(by mask: PixelBuffer) throws(ImagingError) -> Image {
        let alphaMask = try Image(pixels: mask)
        let image = try standardizedToSRGB8()
        guard image.hasAlpha else {
            return try image.apply("vips_bandjoin2") { vgn_bandjoin2($0, alphaMask.pointer, $1) }
        }
        let colourBands = image.bands - 1
        let colour = try image.apply("vips_extract_band") { vgn_extract_bands($0, $1, 0, Int32(colourBands)) }
        let alpha = try image.apply("vips_extract_band") { vgn_extract_bands($0, $1, Int32(colourBands), 1) }
        let combined = try alpha.apply("vips_multiply") { vgn_multiply_alpha($0, alphaMask.pointer, $1) }
        return try colour.apply("vips_bandjoin2") { vgn_bandjoin2($0, combined.pointer, $1) }
    }

    /// Grey images become RGB so that composition mixes like with like.
    fileprivate func withColourBands() throws(ImagingError) -> Image {
        bands <= 2 ? try converted(to: .sRGB) : self
    }
}

/// Antialiased coverage masks.
enum Mask {
    /// 255 inside a `width` × `height` rectangle with corners of `radius`, 0 outside, the edge
    /// antialiased by the distance to it.
    static func roundedRectangle(width: Int, height: Int, radius: Double) -> PixelBuffer {
        var bytes = [UInt8](repeating: 255, count: width * height)
        let r = max(0, radius)
        if r > 0 {
            let w = Double(width)
            let h = Double(height)
            for y in 0..<height {
                let py = Double(y) + 0.5
                let cy = py < r ? r : (py > h - r ? h - r : py)
                for x in 0..<width {
                    let px = Double(x) + 0.5
                    let cx = px < r ? r : (px > w - r ? w - r : px)
                    guard cx != px || cy != py else { continue }
                    let distance = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
                    let coverage = min(1, max(0, r - distance + 0.5))
                    bytes[y * width + x] = UInt8((coverage * 255).rounded())
                }
            }
        }
        return PixelBuffer(width: width, height: height, bands: 1, bytes: bytes)
    }
}

extension Image {
    /// The image with its alpha multiplied by `opacity` (0–1), alpha added when it has none
    /// (`vips_bandjoin2`, `vips_multiply`).
    public func withOpacity(_ opacity: Double) throws(ImagingError) -> Image {
        guard opacity.isFinite, (0...1).contains(opacity) else {
            throw ImagingError(.invalidArgument, "opacity must be between 0 and 1, got \(opacity)")
        }
        guard opacity < 1 else { return self }
        let level = UInt8((opacity * 255).rounded())
        return try masked(by: PixelBuffer(width: width, height: height, bands: 1, bytes: [UInt8](repeating: level, count: width * height)))
    }

    /// `overlay` drawn over this image at `anchor` (`attention` is the centre) moved by `position`'s
    /// offsets, or centred on its focus point, as imgproxy places a watermark; kept inside the
    /// image. An opaque image stays opaque.
    public func composited(with overlay: Image, at anchor: Gravity, position: CropPosition?) throws(ImagingError) -> Image {
        let place = anchor.position ?? (0.5, 0.5)
        let x = Self.cropStart(outer: width, inner: overlay.width, anchor: place.x, offset: position?.x ?? 0, focus: position?.isFocusPoint ?? false)
        let y = Self.cropStart(outer: height, inner: overlay.height, anchor: place.y, offset: position?.y ?? 0, focus: position?.isFocusPoint ?? false)
        return try composited(with: overlay, x: x, y: y).keepingAlpha(of: self)
    }

    /// This image without its alpha band when `original` had none.
    func keepingAlpha(of original: Image) throws(ImagingError) -> Image {
        guard hasAlpha, !original.hasAlpha else { return self }
        return try apply("vips_extract_band") { vgn_extract_bands($0, $1, 0, Int32(bands - 1)) }
    }
}
