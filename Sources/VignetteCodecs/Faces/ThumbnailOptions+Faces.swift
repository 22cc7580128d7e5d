extension ThumbnailOptions {
    /// These options with a `faces` crop resolved for an upright source of `source`: centred on
    /// `FacePlacement`'s focus point for the window the thumbnail cuts (as imgproxy's `g:fp` would
    /// be), or `attention` when there are no faces. Other crops come back as they are.
    package func keepingFaces(_ faces: [Face], uprightSource source: PixelSize) -> ThumbnailOptions {
        guard crop == .faces else { return self }
        var resolved = self
        resolved.crop = .attention
        let geometry = ThumbnailGeometry(source: source, options: self)
        guard geometry.resized.width > 0, geometry.resized.height > 0,
            let focus = FacePlacement.focus(
                of: faces, windowWidth: Double(geometry.output.width) / Double(geometry.resized.width),
                windowHeight: Double(geometry.output.height) / Double(geometry.resized.height))
        else { return resolved }
        resolved.crop = .centre
        resolved.cropPosition = focus
        return resolved
    }
}
