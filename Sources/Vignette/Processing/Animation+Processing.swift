/// A step that places itself once for a whole animation: the same window for every frame
/// (a trim, a crop of the source, a thumbnail's attention crop), where running it on each frame
/// alone would cut each differently.
package protocol AnimationProcessing: ImageProcessing {
    /// Every frame of `animation` processed with one placement, chosen from the frames together.
    func process(_ animation: Animation) throws -> Animation
}

extension Animation {
    /// Every frame run through `processors` in order (each made the same way: a step that places
    /// a window, `AnimationProcessing`, places it once for all frames), with the delays and loop
    /// count kept. libvips builds each frame's recipe without computing pixels, so the
    /// frames' total size after processing (frames × width × height) is checked against
    /// `limits.maxPixels` before any pixel is made: a padding to a large box, frame after frame,
    /// is refused with `.limitExceeded` instead of filling memory. Errors of the processors are
    /// thrown as they are.
    public func processed(by processors: [any ImageProcessing], limits: DecodingLimits = .untrusted) throws -> Animation {
        guard !processors.isEmpty else { return self }
        var animation = self
        for processor in processors {
            if let placed = processor as? any AnimationProcessing {
                animation = try placed.process(animation)
            } else {
                animation = try Animation(
                    frames: animation.frames.map { try processor.process($0) }, delays: animation.delays, loopCount: animation.loopCount)
            }
        }
        let first = animation.frames[0]
        let (area, areaOverflow) = first.width.multipliedReportingOverflow(by: first.height)
        let (total, totalOverflow) = area.multipliedReportingOverflow(by: animation.frameCount)
        if areaOverflow || totalOverflow || total > limits.maxPixels {
            throw ImagingError(
                .limitExceeded,
                "\(animation.frameCount) frames of \(first.width)x\(first.height) are over the limit of \(limits.maxPixels) pixels")
        }
        return animation
    }
}
