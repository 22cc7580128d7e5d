internal import CVignetteImageShims
internal import CVignetteVips

extension Image {
    /// Sharpened with libvips' unsharp mask in LAB space (`vips_sharpen`) of standard deviation
    /// `sigma` pixels, 0–100; 0 returns the image as it is. Typically applied after downscaling.
    public func sharpened(sigma: Double) throws(ImagingError) -> Image {
        guard sigma.isFinite, sigma >= 0, sigma <= 100 else {
            throw ImagingError(.invalidArgument, "sharpen sigma must be between 0 and 100, got \(sigma)")
        }
        guard sigma > 0 else { return self }
        let sharp = try standardizedToSRGB8().apply("vips_sharpen") { vgn_sharpen($0, $1, sigma) }
        return try sharp.standardizedToSRGB8()
    }

    /// Turned clockwise by `degrees`, a multiple of 90 (`vips_rot`); other angles throw
    /// `.invalidArgument`.
    public func rotated(degrees: Int) throws(ImagingError) -> Image {
        guard degrees % 90 == 0 else { throw ImagingError(.invalidArgument, "rotation must be a multiple of 90 degrees, got \(degrees)") }
        let turns = Int32(((degrees / 90) % 4 + 4) % 4)
        guard turns != 0 else { return self }
        return try apply("vips_rot") { vgn_rot($0, $1, turns) }
    }

    /// Mirrored left to right (`horizontally`, a "flop") or top to bottom (a "flip"), `vips_flip`.
    public func flipped(horizontally: Bool) throws(ImagingError) -> Image {
        try apply("vips_flip") { vgn_flip($0, $1, horizontally ? 1 : 0) }
    }

    /// Placed on a `width` × `height` canvas at `gravity`, the rest filled with `background`
    /// (red, green, blue 0–255; alpha 255 when the image has alpha, 0 when `transparent`) — `vips_gravity`. A canvas
    /// smaller than the image crops it at the same gravity. Sides must be 1–100000. A grey image
    /// on a colour that is not grey becomes sRGB, so the padding has the colour asked for.
    public func extended(
        toWidth width: Int, height: Int, gravity: Gravity = .centre, background: (red: Double, green: Double, blue: Double) = (0, 0, 0),
        transparent: Bool = false
    ) throws(ImagingError) -> Image {
        guard (1...100_000).contains(width), (1...100_000).contains(height) else {
            throw ImagingError(.invalidArgument, "canvas must be between 1 and 100000 pixels a side, got \(width)x\(height)")
        }
        let image = try prepared(forBackground: background)
        var values: [Double]
        switch (image.bands, image.hasAlpha) {
        case (1, _): values = [(background.red + background.green + background.blue) / 3]
        case (2, _): values = [(background.red + background.green + background.blue) / 3, transparent ? 0 : 255]
        case (_, true): values = [background.red, background.green, background.blue, transparent ? 0 : 255]
        default: values = [background.red, background.green, background.blue]
        }
        let direction = gravity.vipsDirection
        let count = Int32(values.count)
        return try image.apply("vips_gravity") { input, output in
            values.withUnsafeBufferPointer { vgn_gravity(input, output, direction, Int32(width), Int32(height), $0.baseAddress, count) }
        }
    }

    /// 8-bit sRGB or grey (`standardizedToSRGB8`), and sRGB when grey but `background` is not a
    /// grey: the colour a flatten or a padding is asked for must survive.
    func prepared(forBackground background: (red: Double, green: Double, blue: Double)) throws(ImagingError) -> Image {
        let image = try standardizedToSRGB8()
        let colourBands = image.hasAlpha ? image.bands - 1 : image.bands
        guard colourBands == 1, background.red != background.green || background.green != background.blue else { return image }
        return try image.converted(to: .sRGB)
    }
}
