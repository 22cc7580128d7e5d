/// Where a crop window goes to keep faces (`Gravity.faces`): the faces are taken by weight (area ×
/// score) while the box around those taken still fits the window, so when they cannot all fit the
/// largest and most confident are kept whole; the window is centred on their weighted centre,
/// moved only as far as needed to hold that box. Everything is in fractions of the image.
package enum FacePlacement {
    /// The focus point (the window's centre, as imgproxy's `fp` takes it) for a window of `width` ×
    /// `height` (fractions of the image's sides); nil when there are no faces.
    package static func focus(of faces: [Face], windowWidth width: Double, windowHeight height: Double) -> CropPosition? {
        let ranked = faces.filter { $0.width > 0 && $0.height > 0 && $0.score > 0 }
            .sorted { $0.width * $0.height * $0.score > $1.width * $1.height * $1.score }
        guard let first = ranked.first else { return nil }
        var kept = [first]
        var box = Bounds(first)
        for face in ranked.dropFirst() {
            let grown = box.union(Bounds(face))
            if grown.maxX - grown.minX <= width, grown.maxY - grown.minY <= height {
                kept.append(face)
                box = grown
            }
        }
        let weights = kept.map { $0.width * $0.height * $0.score }
        let total = weights.reduce(0, +)
        let cx = zip(kept, weights).map { $0.centre.x * $1 }.reduce(0, +) / total
        let cy = zip(kept, weights).map { $0.centre.y * $1 }.reduce(0, +) / total
        return CropPosition(
            x: placed(cx, window: width, from: box.minX, to: box.maxX), y: placed(cy, window: height, from: box.minY, to: box.maxY),
            isFocusPoint: true)
    }

    /// The window's centre nearest `centre` that keeps `from…to` inside it (centred on that span
    /// when it is wider than the window), within the image.
    private static func placed(_ centre: Double, window: Double, from: Double, to: Double) -> Double {
        let half = min(window, 1) / 2
        let lowest = to - half, highest = from + half
        let held = lowest <= highest ? min(max(centre, lowest), highest) : (from + to) / 2
        return min(max(held, half), 1 - half)
    }

    private struct Bounds {
        var minX, minY, maxX, maxY: Double
        init(_ face: Face) { (minX, minY, maxX, maxY) = (face.x, face.y, face.x + face.width, face.y + face.height) }
        init(minX: Double, minY: Double, maxX: Double, maxY: Double) { (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY) }
        func union(_ other: Bounds) -> Bounds {
            Bounds(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
        }
    }
}
