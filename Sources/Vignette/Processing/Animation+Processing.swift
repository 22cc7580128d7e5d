extension Animation {
    /// Every frame run through `processors` in order (each made the same way), with the delays and
    /// loop count kept. libvips builds each frame's recipe without computing pixels, so the
    /// frames' total size after processing (frames × width × height) is checked against
    /// `limits.maxPixels` before any pixel is made: a padding to a large box, frame after frame,
    /// is refused with `.limitExceeded` instead of filling memory. Errors of the processors are
    /// thrown as they are.
    public func processed(by processors: [any ImageProcessing], limits: DecodingLimits = .untrusted) throws -> Animation {
        guard !processors.isEmpty else { return self }
        let made = try frames.map { frame in try processors.reduce(frame) { image, processor in try processor.process(image) } }
        let first = made[0]
        let (area, areaOverflow) = first.width.multipliedReportingOverflow(by: first.height)
        let (total, totalOverflow) = area.multipliedReportingOverflow(by: made.count)
        if areaOverflow || totalOverflow || total > limits.maxPixels {
            throw ImagingError(
                .limitExceeded,
                "\(made.count) frames of \(first.width)x\(first.height) are over the limit of \(limits.maxPixels) pixels")
        }
        return try Animation(frames: made, delays: delays, loopCount: loopCount)
    }
}
