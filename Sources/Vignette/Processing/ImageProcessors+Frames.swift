extension ImageProcessors.Trim: AnimationProcessing {
    /// Only what is background in every frame cut away: the union of the frames' boxes
    /// (`Image.trimBox`, against the first frame's top left colour when no colour is given), then
    /// the equal cuts, one crop for all frames. An animation background all over is returned whole.
    package func process(_ animation: Animation) throws -> Animation {
        let frames = animation.frames
        let corner = try colour?.channels ?? Self.triple(frames[0].trimColour())
        var union: (left: Int, top: Int, right: Int, bottom: Int)?
        for frame in frames {
            guard let box = try frame.trimBox(threshold: threshold, background: corner) else { continue }
            let (right, bottom) = (box.x + box.width, box.y + box.height)
            union = union.map { (min($0.left, box.x), min($0.top, box.y), max($0.right, right), max($0.bottom, bottom)) }
                ?? (box.x, box.y, right, bottom)
        }
        guard let union else { return try Animation(frames: frames, delays: animation.delays, loopCount: animation.loopCount) }
        let (width, height) = (frames[0].width, frames[0].height)
        let (x, y, w, h) = Image.equalised(
            (union.left, union.top, union.right - union.left, union.bottom - union.top), width: width, height: height,
            horizontal: equalHorizontal, vertical: equalVertical)
        return try Animation(
            frames: frames.map { try $0.cropped(x: x, y: y, width: w, height: h) }, delays: animation.delays, loopCount: animation.loopCount)
    }

    static func triple(_ bands: [Double]) -> (red: Double, green: Double, blue: Double) {
        bands.count >= 3 ? (bands[0], bands[1], bands[2]) : (bands.first ?? 0, bands.first ?? 0, bands.first ?? 0)
    }
}

extension ImageProcessors.Region: AnimationProcessing {
    /// One region for every frame: an attention region placed on the first frame (the frame a
    /// still of the animation shows, `Image.attentionFocus`), others where they fall on every frame alike.
    package func process(_ animation: Animation) throws -> Animation {
        var placed = self
        if anchor.withoutFaces == .attention, position?.isFocusPoint != true {
            let first = try animation.frames[0].materialized()
            placed.position = try first.attentionFocus(first.regionSize(width: width, height: height))
        }
        return try Animation(
            frames: animation.frames.map { try placed.process($0) }, delays: animation.delays, loopCount: animation.loopCount)
    }
}

extension ImageProcessors.Thumbnail: AnimationProcessing {
    /// One thumbnail window for every frame: an attention crop placed on the first frame resized
    /// (`Image.attentionFocus`), so every frame is cut at the same place.
    package func process(_ animation: Animation) throws -> Animation {
        let placed = Self(options: try animation.frames[0].attentionPlaced(options))
        return try Animation(
            frames: animation.frames.map { try placed.process($0) }, delays: animation.delays, loopCount: animation.loopCount)
    }
}
