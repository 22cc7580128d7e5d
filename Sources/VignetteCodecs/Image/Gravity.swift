internal import CVignetteVips

/// Where an image sits in a window or on a canvas: the centre, a compass point, or (for crops)
/// libvips' attention heuristic or the faces in the image. A cover crop (`ThumbnailOptions.crop`, `ImageRecipe.gravity`)
/// takes its window from it; `Image.extended(toWidth:height:gravity:background:transparent:)`
/// places the image on its canvas by it.
public enum Gravity: String, Sendable, CaseIterable, Codable {
    /// The middle of the image.
    case centre
    /// The most interesting region by libvips' attention heuristic (`vips_smartcrop`). A canvas
    /// has no region to find, so there it is the centre.
    case attention
    /// The faces in the image, kept whole (`FaceDetector`, `FacePlacement`): the pipeline finds
    /// them once per source and places the window on them; where there is no face, or no detector,
    /// this is `attention`. A canvas has no faces to find, so there it is the centre.
    case faces
    /// The top edge, centred across.
    case north
    /// The bottom edge, centred across.
    case south
    /// The right edge, centred up and down.
    case east
    /// The left edge, centred up and down.
    case west
    /// The top right corner.
    case northEast
    /// The top left corner.
    case northWest
    /// The bottom right corner.
    case southEast
    /// The bottom left corner.
    case southWest

    /// Where the window starts across (0, ½ or 1 of the spare width) and down, for the
    /// positions; nil for `attention` and `faces`.
    package var position: (x: Double, y: Double)? {
        switch self {
        case .centre: (0.5, 0.5)
        case .attention, .faces: nil
        case .north: (0.5, 0)
        case .south: (0.5, 1)
        case .east: (1, 0.5)
        case .west: (0, 0.5)
        case .northEast: (1, 0)
        case .northWest: (0, 0)
        case .southEast: (1, 1)
        case .southWest: (0, 1)
        }
    }

    /// libvips' `VipsCompassDirection` value (`attention` and `faces` are the centre).
    var vipsDirection: Int32 {
        let direction: VipsCompassDirection =
            switch self {
            case .centre, .attention, .faces: VIPS_COMPASS_DIRECTION_CENTRE
            case .north: VIPS_COMPASS_DIRECTION_NORTH
            case .east: VIPS_COMPASS_DIRECTION_EAST
            case .south: VIPS_COMPASS_DIRECTION_SOUTH
            case .west: VIPS_COMPASS_DIRECTION_WEST
            case .northEast: VIPS_COMPASS_DIRECTION_NORTH_EAST
            case .southEast: VIPS_COMPASS_DIRECTION_SOUTH_EAST
            case .southWest: VIPS_COMPASS_DIRECTION_SOUTH_WEST
            case .northWest: VIPS_COMPASS_DIRECTION_NORTH_WEST
            }
        return Int32(direction.rawValue)
    }
}

extension Gravity {
    /// `attention` for `faces`, which only the pipeline can resolve (it has the detector): what a
    /// crop does with faces it was not given.
    package var withoutFaces: Gravity { self == .faces ? .attention : self }
}
