extension ImageProcessors {
    /// Blocks of `size` × `size` pixels, each the average of the pixels it covers (imgproxy's
    /// `pixelate`): a reduction (`vips_resize`, linear) and a nearest-neighbour enlargement back.
    package struct Pixelate: ImageProcessing, Hashable {
        /// The block's side in pixels; 1 or less changes nothing.
        public var size: Int

        /// Blocks of `size` pixels.
        public init(size: Int) { self.size = size }

        /// "pixelate(N)", for disk-cache keys.
        public var identifier: String { "pixelate(\(size))" }

        /// The pixelated image, the same size as `image`.
        public func process(_ image: Image) throws(ImagingError) -> Image {
            guard size > 1 else { return image }
            let small = try image.resized(
                toWidth: (image.width + size - 1) / size, height: (image.height + size - 1) / size, kernel: .linear)
            let blocks = try small.resized(toWidth: small.width * size, height: small.height * size, kernel: .nearest)
            return try blocks.cropped(x: 0, y: 0, width: image.width, height: image.height)
        }
    }
}
