internal import CVignetteImageShims
internal import CVignetteVips

extension Image {
    /// Scales by `scale` horizontally and vertically with `vips_resize`.
    public func resized(scale: Double, kernel: ResizeKernel = .lanczos3) throws(ImagingError) -> Image {
        try resized(horizontalScale: scale, verticalScale: scale, kernel: kernel)
    }

    /// Resizes to exactly `width` × `height` (the aspect ratio may change) with `vips_resize`.
    public func resized(toWidth width: Int, height: Int, kernel: ResizeKernel = .lanczos3) throws(ImagingError) -> Image {
        guard width > 0, height > 0 else {
            throw ImagingError(.invalidArgument, "resize target must be positive, got \(width)x\(height)")
        }
        if width == self.width, height == self.height { return self }
        // vips_resize rounds width × scale; aim a hair above the exact ratio so the result lands on
        // the requested size rather than one pixel short.
        let h = (Double(width) + 0.1) / Double(self.width)
        let v = (Double(height) + 0.1) / Double(self.height)
        let result = try resized(horizontalScale: h, verticalScale: v, kernel: kernel)
        if result.width == width, result.height == height { return result }
        return try result.cropped(x: 0, y: 0, width: min(width, result.width), height: min(height, result.height))
    }

    func resized(horizontalScale h: Double, verticalScale v: Double, kernel: ResizeKernel) throws(ImagingError) -> Image {
        guard h > 0, v > 0, h.isFinite, v.isFinite else {
            throw ImagingError(.invalidArgument, "resize scale must be positive, got \(h)x\(v)")
        }
        guard hasAlpha else {
            return try apply("vips_resize") { vgn_resize($0, $1, h, v, kernel.vipsValue) }
        }
        // Resize premultiplied so transparent pixels' colour does not bleed into the edges.
        let format = vips_image_get_format(pointer)
        let premultiplied = try apply("vips_premultiply") { vgn_premultiply($0, $1) }
        let resized = try premultiplied.apply("vips_resize") { vgn_resize($0, $1, h, v, kernel.vipsValue) }
        let straight = try resized.apply("vips_unpremultiply") { vgn_unpremultiply($0, $1) }
        return try straight.castBack(to: format)
    }

    /// The rectangle at (`x`, `y`) of `width` × `height` (`vips_crop`).
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws(ImagingError) -> Image {
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= self.width, y + height <= self.height else {
            throw ImagingError(
                .invalidArgument,
                "crop \(width)x\(height)+\(x)+\(y) is outside the \(self.width)x\(self.height) image")
        }
        if x == 0, y == 0, width == self.width, height == self.height { return self }
        return try apply("vips_crop") { vgn_crop($0, $1, Int32(x), Int32(y), Int32(width), Int32(height)) }
    }

    /// A `width` × `height` window (`vips_crop`): at the centre, an edge or a corner, or around the
    /// most interesting part (`vips_smartcrop`).
    public func cropped(toWidth width: Int, height: Int, anchor: Gravity) throws(ImagingError) -> Image {
        let w = min(width, self.width)
        let h = min(height, self.height)
        guard let position = anchor.position else {
            if w == self.width, h == self.height { return self }
            let attention = Int32(VIPS_INTERESTING_ATTENTION.rawValue)
            return try apply("vips_smartcrop") { vgn_smartcrop($0, $1, Int32(w), Int32(h), attention) }
        }
        // The centre rounds down, as it always has: (spare / 2).
        let x = position.x == 0.5 ? (self.width - w) / 2 : Int(position.x) * (self.width - w)
        let y = position.y == 0.5 ? (self.height - h) / 2 : Int(position.y) * (self.height - h)
        return try cropped(x: x, y: y, width: w, height: h)
    }

    /// Applies the EXIF orientation and drops the tag (`vips_autorot`). Upright images come back as they are.
    public func autoOriented() throws(ImagingError) -> Image {
        guard orientation != 1 else { return self }
        return try apply("vips_autorot") { vgn_autorot($0, $1) }
    }

    /// A gaussian blur of standard deviation `sigma` pixels (`vips_gaussblur`); `sigma` ≤ 0 is no blur.
    public func blurred(sigma: Double) throws(ImagingError) -> Image {
        guard sigma.isFinite, sigma >= 0, sigma <= 1000 else {
            throw ImagingError(.invalidArgument, "blur sigma must be between 0 and 1000, got \(sigma)")
        }
        guard sigma > 0 else { return self }
        return try apply("vips_gaussblur") { vgn_gaussblur($0, $1, sigma) }
    }

    /// Alpha composited onto a solid background (white unless said otherwise; red, green, blue
    /// 0–255), `vips_flatten`; an image without alpha is returned as it is. The image is brought to
    /// 8-bit sRGB or grey first, and a grey image flattened onto a colour that is not grey becomes
    /// sRGB, so the colour is kept.
    public func flattened(red: Double = 255, green: Double = 255, blue: Double = 255) throws(ImagingError) -> Image {
        guard hasAlpha else { return self }
        let image = try prepared(forBackground: (red, green, blue))
        let flat = try image.apply("vips_flatten") { vgn_flatten($0, $1, red, green, blue) }
        return try flat.apply("vips_cast") { vgn_cast_uchar($0, $1) }
    }
}
