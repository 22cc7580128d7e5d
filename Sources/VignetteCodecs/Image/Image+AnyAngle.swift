#if canImport(Glibc)
import Glibc
#endif
internal import CVignetteImageShims
internal import CVignetteVips

extension Image {
    /// Turned clockwise by `degrees`, any finite angle. A multiple of 90 (-90, 450… included) is
    /// `rotated(degrees:)`, `vips_rot`'s exact quarter turn; any other angle is `vips_rotate`
    /// (bilinear), the canvas grown to the rotated bounding box (`rotatedSize(_:degrees:)`) and its
    /// corners filled with `background` (red, green, blue 0–255), else transparent when the image
    /// has alpha, else white. The image is brought to 8-bit sRGB or grey first
    /// (`prepared(forBackground:)`). A non-finite angle throws `.invalidArgument`.
    public func rotated(byDegrees degrees: Double, background: (red: Double, green: Double, blue: Double)? = nil) throws(ImagingError) -> Image {
        guard degrees.isFinite else { throw ImagingError(.invalidArgument, "rotation must be a finite number of degrees, got \(degrees)") }
        if let turns = Self.quarterTurns(degrees) { return try rotated(degrees: turns * 90) }
        let colour = background ?? (255, 255, 255)
        let image = try prepared(forBackground: colour)
        let grey = (colour.red + colour.green + colour.blue) / 3
        let opacity: Double = background == nil ? 0 : 255
        let values: [Double]
        switch (image.bands, image.hasAlpha) {
        case (1, _): values = [grey]
        case (2, _): values = [grey, opacity]
        case (_, true): values = [colour.red, colour.green, colour.blue, opacity]
        default: values = [colour.red, colour.green, colour.blue]
        }
        let angle = degrees.truncatingRemainder(dividingBy: 360)
        let count = Int32(values.count)
        return try image.apply("vips_rotate") { input, output in
            values.withUnsafeBufferPointer { vgn_rotate_angle(input, output, angle, $0.baseAddress, count) }
        }
    }

    /// The whole number of clockwise quarter turns `degrees` is, or nil when it is not a multiple of 90.
    public static func quarterTurns(_ degrees: Double) -> Int? {
        guard degrees.isFinite else { return nil }
        let turns = degrees / 90
        guard turns == turns.rounded(), abs(turns) < 1e12 else { return nil }
        return (Int(turns) % 4 + 4) % 4
    }

    /// The size of a `size` image turned by `degrees` (`rotated(byDegrees:background:)`): the sides
    /// swapped for an odd quarter turn; else the rotated bounding box rounded to the nearest pixel,
    /// as `vips_rotate` makes it (400×300 by 45° is 495×495).
    public static func rotatedSize(_ size: PixelSize, degrees: Double) -> PixelSize {
        if let turns = quarterTurns(degrees) { return turns % 2 == 1 ? PixelSize(width: size.height, height: size.width) : size }
        guard degrees.isFinite else { return size }
        let radians = degrees.truncatingRemainder(dividingBy: 360) * .pi / 180
        let (c, s) = (abs(cos(radians)), abs(sin(radians)))
        let (w, h) = (Double(size.width), Double(size.height))
        func side(_ value: Double) -> Int { max(1, Int(min(1e9, value.rounded()))) }
        return PixelSize(width: side(w * c + h * s), height: side(w * s + h * c))
    }
}
