extension ImageRecipe {
    /// What a placeholder string is made from: the image, upright, fitted into 100 × 100 (the
    /// size ThumbHash works at; BlurHash reduces it further).
    package static var placeholder: ImageRecipe { ImageRecipe(width: 100, height: 100) }
}

extension ImagePipeline {
    /// The ThumbHash or BlurHash (`Image.placeholder(_:)`) of the image `request` makes, through
    /// this pipeline: a request of `ImageRecipe.placeholder` for its source.
    package func placeholder(_ kind: PlaceholderKind, for request: ImageRequest) async throws -> String {
        try await image(for: request).placeholder(kind)
    }
}

extension EncodedImage {
    /// The ThumbHash or BlurHash (`Image.placeholder(_:)`) of these bytes, decoded within `limits`:
    /// the placeholder of a result as it was written.
    package func placeholder(_ kind: PlaceholderKind, limits: DecodingLimits) throws(ImagingError) -> String {
        try ImageDecoder(limits: limits).decode(data).placeholder(kind)
    }
}
