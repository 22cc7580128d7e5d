import Vignette
import VignetteSupport

extension ImgproxyOptions {
    /// One option's arguments, read by position with imgproxy's forms; errors name the option.
    struct Arguments {
        let option: String
        let values: [Substring]

        /// Whether argument `index` is given and not empty (an empty one keeps its default).
        func has(_ index: Int) -> Bool { index < values.count && !values[index].isEmpty }

        func count(_ range: ClosedRange<Int>) throws(ImagingError) {
            guard range.contains(values.count) else { throw invalid("\(option): wrong number of arguments") }
        }

        func integer(_ index: Int, in range: ClosedRange<Int>) throws(ImagingError) -> Int {
            let text = values[index]
            guard text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text) else {
                throw invalid("\(option): \(shown(String(text))) is not a whole number")
            }
            guard range.contains(value) else { throw invalid("\(option): \(value) is not in \(range.lowerBound)–\(range.upperBound)") }
            return value
        }

        func number(_ index: Int, in range: ClosedRange<Double>) throws(ImagingError) -> Double {
            let text = values[index]
            guard text.utf8.count <= 16, let value = Double(text), value.isFinite else {
                throw invalid("\(option): \(shown(String(text))) is not a number")
            }
            guard range.contains(value) else { throw invalid("\(option): \(text) is not in \(range.lowerBound)–\(range.upperBound)") }
            return value
        }

        /// A number above 0 within `range`.
        func positive(_ index: Int, in range: ClosedRange<Double>) throws(ImagingError) -> Double {
            let value = try number(index, in: range)
            guard value > 0 else { throw invalid("\(option): must be above 0") }
            return value
        }

        /// Megapixels (a number above 0) as pixels.
        func megapixels(_ index: Int) throws(ImagingError) -> Int {
            Int(try positive(index, in: 0...100_000) * 1_000_000)
        }

        /// A gravity a padding or a watermark may use: the compass points and the centre.
        func canvasGravity(_ index: Int) throws(ImagingError) -> CompassGravity {
            let gravity = try gravity(index)
            guard gravity != .smart else { throw invalid("\(option): sm is not a position") }
            return gravity
        }

        /// imgproxy's booleans: 1, t, true / 0, f, false.
        func flag(_ index: Int) throws(ImagingError) -> Bool {
            switch values[index] {
            case "1", "t", "true": return true
            case "0", "f", "false": return false
            default: throw invalid("\(option): \(shown(String(values[index]))) is not a boolean")
            }
        }

        func gravity(_ index: Int) throws(ImagingError) -> CompassGravity {
            guard let gravity = CompassGravity(rawValue: String(values[index])) else {
                throw invalid("\(option): unknown gravity \(shown(String(values[index])))")
            }
            return gravity
        }

        /// `R:G:B` (0–255 each) or `RRGGBB`; no argument, or an empty one, clears it.
        func colour() throws(ImagingError) -> ImageRecipe.Colour? {
            switch values.count {
            case 0: return nil
            case 1 where values[0].isEmpty: return nil
            case 1:
                guard values[0].utf8.count == 6, let colour = ImageRecipe.Colour(parsing: values[0]) else {
                    throw invalid("\(option): \(shown(String(values[0]))) is not a hex colour")
                }
                return colour
            case 3:
                var channels: [UInt8] = []
                for index in 0..<3 { channels.append(UInt8(try integer(index, in: 0...255))) }
                return ImageRecipe.Colour(red: channels[0], green: channels[1], blue: channels[2])
            default:
                throw invalid("\(option): wrong number of arguments")
            }
        }
    }

    /// imgproxy's gravity names: the compass points, the centre, and `sm` (smart).
    enum CompassGravity: String {
        case north = "no", south = "so", east = "ea", west = "we"
        case northEast = "noea", northWest = "nowe", southEast = "soea", southWest = "sowe"
        case centre = "ce", smart = "sm"

        /// What a fill's crop keeps (smart: libvips' attention region).
        var anchor: Gravity {
            switch self {
            case .north: .north
            case .south: .south
            case .east: .east
            case .west: .west
            case .northEast: .northEast
            case .northWest: .northWest
            case .southEast: .southEast
            case .southWest: .southWest
            case .centre: .centre
            case .smart: .attention
            }
        }
    }
}
