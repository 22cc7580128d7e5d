extension Image {
    /// This image, resized to `geometry.resized`, cropped to `geometry.output`: at `options.crop`'s
    /// anchor, moved by `options.cropPosition`'s offsets (pixels times the device pixel ratio) or centred on its focus point (as
    /// imgproxy places a crop), or around the most interesting part (`vips_smartcrop`, which
    /// takes no offsets). The one crop to the result every thumbnail route makes.
    func croppedToResult(_ geometry: ThumbnailGeometry, options given: ThumbnailOptions) throws(ImagingError) -> Image {
        guard geometry.crops else { return self }
        var options = given
        options.crop = given.crop.withoutFaces
        let size = geometry.output
        guard let position = options.cropPosition, options.crop != .attention || position.isFocusPoint else {
            let image = options.crop == .attention ? try materialized() : self
            return try image.cropped(toWidth: size.width, height: size.height, anchor: options.crop)
        }
        // Offsets in pixels follow the device pixel ratio as it applies (`ThumbnailGeometry.dprScale`).
        let x = Self.cropStart(
            outer: width, inner: size.width, anchor: options.crop.position?.x ?? 0.5, offset: position.x, focus: position.isFocusPoint,
            pixelScale: geometry.dprScale)
        let y = Self.cropStart(
            outer: height, inner: size.height, anchor: options.crop.position?.y ?? 0.5, offset: position.y, focus: position.isFocusPoint,
            pixelScale: geometry.dprScale)
        return try cropped(x: x, y: y, width: min(size.width, width), height: min(size.height, height))
    }

    /// Where a window of `inner` starts on `outer` along one axis: centred on the focus point
    /// (`offset` 0–1), or at the anchor (0 start, 0.5 middle, 1 end) moved by `offset` inward
    /// from an edge or forward from the middle (pixels from 1 on, times `pixelScale`, else a fraction of `outer`);
    /// always inside `outer`.
    package static func cropStart(outer: Int, inner: Int, anchor: Double, offset: Double, focus: Bool, pixelScale: Double = 1) -> Int {
        let spare = max(0, outer - inner)
        let start: Int
        if focus {
            start = Int((Double(outer) * offset).rounded(.toNearestOrEven)) - inner / 2
        } else {
            let shift = abs(offset) >= 1 ? Int((offset * pixelScale).rounded(.toNearestOrEven)) : Int((Double(outer) * offset).rounded(.toNearestOrEven))
            switch anchor {
            case 0: start = shift
            case 1: start = spare - shift
            default: start = Int((Double(spare + 1) / 2).rounded(.toNearestOrEven)) + shift
            }
        }
        return min(max(0, start), spare)
    }
}
