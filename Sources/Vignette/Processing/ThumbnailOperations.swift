/// The operations users of sharp and imgproxy expect around a thumbnail, as one value that
/// `vignette thumbnail` and the server both turn into their pipeline request
/// (`plan(for:)`), so that both apply them the same way:
///
/// - `dpr` multiplies the box (a device pixel ratio: 2 makes a 100×100 box 200×200 pixels);
/// - after the resize, in this order: `rotation` (`vips_rot`), `flip` then `flop` (`vips_flip`),
///   `sharpenSigma` (`vips_sharpen`), `background` (alpha flattened onto it, `vips_flatten`) and
///   `extend` (padded to the whole box at `extendGravity`, filled with `background` or black,
///   `vips_gravity`).
///
/// The result is the one imgproxy gives by turning and mirroring the image before resizing it: the
/// thumbnail is made in the box turned back (and a cover crop keeps the window that ends up at
/// the anchor asked for), then turned and mirrored, which is cheaper on the small image. So the
/// result of a quarter turn still fits the box as given.
public struct ThumbnailOperations: Sendable, Hashable {
    /// An opaque colour, 0–255 a channel.
    public struct Colour: Sendable, Hashable, CustomStringConvertible {
        /// The channels, 0–255.
        public var red: UInt8, green: UInt8, blue: UInt8

        /// A colour from its channels.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// A colour written `RRGGBB` (hex, an optional leading `#`) or `R,G,B` (0–255 each);
        /// nil for anything else.
        public init?(parsing text: some StringProtocol) {
            let text = Substring(text)
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            if parts.count == 3 {
                let values = parts.compactMap { part -> UInt8? in
                    guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
                    return UInt8(part)
                }
                guard values.count == 3 else { return nil }
                self.init(red: values[0], green: values[1], blue: values[2])
                return
            }
            let hex = text.hasPrefix("#") ? text.dropFirst() : text
            let isHexDigit = { (byte: UInt8) in (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte) }
            guard hex.utf8.count == 6, hex.utf8.allSatisfy(isHexDigit), let value = UInt32(hex, radix: 16) else { return nil }
            self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
        }

        /// "R,G,B".
        public var description: String { "\(red),\(green),\(blue)" }
    }

    /// The largest device pixel ratio accepted (the smallest is anything above 0).
    public static let maximumDPR = 8.0

    /// Multiplies the box, above 0 and at most `maximumDPR`; 1 leaves it as it is.
    public var dpr: Double
    /// A clockwise turn in degrees, a multiple of 90 (others wrap: -90 is 270).
    public var rotation: Int
    /// Mirror top to bottom (`vips_flip`, vertical), after the turn.
    public var flip: Bool
    /// Mirror left to right (`vips_flip`, horizontal), after the flip.
    public var flop: Bool
    /// Unsharp mask of this standard deviation in thumbnail pixels, 0–100 (`vips_sharpen`); 0 is none.
    public var sharpenSigma: Double
    /// What alpha is flattened onto (`vips_flatten`), and the fill of `extend`; nil keeps alpha
    /// (and `extend` fills with opaque black).
    public var background: Colour?
    /// Whether the result is padded to the whole box (`vips_gravity`).
    public var extend: Bool
    /// Where `extend` puts the image on the box.
    public var extendGravity: Gravity

    /// Operations with the values given; the defaults change nothing.
    public init(
        dpr: Double = 1, rotation: Int = 0, flip: Bool = false, flop: Bool = false, sharpenSigma: Double = 0,
        background: Colour? = nil, extend: Bool = false, extendGravity: Gravity = .centre
    ) {
        self.dpr = dpr
        self.rotation = rotation
        self.flip = flip
        self.flop = flop
        self.sharpenSigma = sharpenSigma
        self.background = background
        self.extend = extend
        self.extendGravity = extendGravity
    }

    /// Throws `.invalidArgument` naming the first value out of range: `dpr` not above 0 or above
    /// `maximumDPR`, a `rotation` that is not a multiple of 90, `sharpenSigma` outside 0–100.
    public func validate() throws(ImagingError) {
        guard dpr.isFinite, dpr > 0, dpr <= Self.maximumDPR else {
            throw ImagingError(.invalidArgument, "dpr must be above 0 and at most \(Self.maximumDPR), got \(dpr)")
        }
        guard rotation % 90 == 0 else {
            throw ImagingError(.invalidArgument, "rotation must be a multiple of 90 degrees, got \(rotation)")
        }
        guard sharpenSigma.isFinite, (0...100).contains(sharpenSigma) else {
            throw ImagingError(.invalidArgument, "sharpen sigma must be between 0 and 100, got \(sharpenSigma)")
        }
    }
}
