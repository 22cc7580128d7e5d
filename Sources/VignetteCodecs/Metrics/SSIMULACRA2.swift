internal import CVignetteMetrics

/// A reference image prepared for SSIMULACRA 2.1, the full-reference perceptual metric of libjxl's
/// `ssimulacra2` tool, and scores of candidates against it.
///
/// The work is done by CVignetteMetrics, Vignette's own C written from the metric's published
/// description (`vgn_ssimulacra2_prepare` once here, `vgn_ssimulacra2_score` for each candidate):
/// both images in linear light and JPEG XL's XYB at six scales, SSIM and edge (ringing, blur) maps
/// from a recursive Gaussian, their 1- and 4-norms weighted and mapped to a score. Scores are within
/// 0.1 of libjxl 0.11's tool on the pairs `Scripts/check-ssimulacra2.sh` makes.
///
/// Scores read: 100 identical, about 90 visually lossless, 70 high quality, 50 medium, 30 low; very
/// poor candidates go below 0. An image with alpha is blended over dark and light grey and the
/// lower score wins, as the tool does. Pixels are compared as stored: orient both images alike
/// (`autoOriented()`) first when their EXIF orientations differ.
///
/// Preparing keeps the reference's pyramid and the scratch planes of one score (about 90 bytes
/// per pixel; 140 with alpha, see `byteCount`), so that a search over several encodings of one
/// image prepares it once. It is `Sendable`: the C handle is read-only once prepared, but for a
/// flag that hands its scratch planes to one score at a time (an atomic test-and-set; scores on
/// other threads at the same time allocate their own).
public final class SSIMULACRA2Reference: @unchecked Sendable {
    private let handle: OpaquePointer
    /// The reference's width in pixels; candidates must have it.
    public let width: Int
    /// The reference's height in pixels; candidates must have it.
    public let height: Int

    /// Prepares `image` (converted to 8-bit sRGB by `pixels()`) as the reference, with
    /// `vgn_ssimulacra2_prepare`. Throws `.invalidArgument` for a side shorter than 8 pixels or
    /// longer than 65,535, `.operationFailed` when memory runs out.
    public convenience init(image: Image) throws(ImagingError) {
        try self.init(image: image, scalar: false)
    }

    /// `init(image:)` on the portable scalar path even where AVX2 is available (`scalar` true),
    /// for the tests that check the two paths agree.
    package init(image: Image, scalar: Bool) throws(ImagingError) {
        let pixels = try image.pixels()
        var prepared: OpaquePointer?
        let status = pixels.bytes.withUnsafeBufferPointer { bytes in
            vgn_ssimulacra2_prepare(
                bytes.baseAddress, Int32(pixels.width), Int32(pixels.height), pixels.width * pixels.bands,
                Int32(pixels.bands), Int32(scalar ? VGN_SSIMULACRA2_SCALAR : VGN_SSIMULACRA2_AUTOMATIC), &prepared)
        }
        guard status == Int32(VGN_SSIMULACRA2_OK), let prepared else {
            throw Self.error(status, width: pixels.width, height: pixels.height, reference: nil)
        }
        handle = prepared
        width = pixels.width
        height = pixels.height
    }

    deinit {
        vgn_ssimulacra2_free(handle)
    }

    /// The bytes the prepared reference holds (`vgn_ssimulacra2_reference_bytes`).
    public var byteCount: Int { vgn_ssimulacra2_reference_bytes(handle) }

    /// The SSIMULACRA 2.1 score of `candidate` against this reference (`vgn_ssimulacra2_score`),
    /// `candidate` converted to 8-bit sRGB by `pixels()`. Throws `.invalidArgument` when its size
    /// is not the reference's, `.operationFailed` when memory runs out.
    public func score(_ candidate: Image) throws(ImagingError) -> Double {
        let pixels = try candidate.pixels()
        var score = 0.0
        let status = pixels.bytes.withUnsafeBufferPointer { bytes in
            vgn_ssimulacra2_score(
                handle, bytes.baseAddress, Int32(clamping: pixels.width), Int32(clamping: pixels.height),
                pixels.width * pixels.bands, Int32(pixels.bands), &score)
        }
        guard status == Int32(VGN_SSIMULACRA2_OK) else {
            throw Self.error(status, width: pixels.width, height: pixels.height, reference: (width, height))
        }
        return score
    }

    /// The error for a status of CVignetteMetrics about an image of `width` × `height`.
    private static func error(_ status: Int32, width: Int, height: Int, reference: (Int, Int)?) -> ImagingError {
        switch status {
        case Int32(VGN_SSIMULACRA2_SIZE_MISMATCH):
            let (w, h) = reference ?? (0, 0)
            return ImagingError(
                .invalidArgument, "SSIMULACRA2 compares images of one size: this one is \(width)x\(height), the reference \(w)x\(h)")
        case Int32(VGN_SSIMULACRA2_BAD_SIZE):
            return ImagingError(
                .invalidArgument, "SSIMULACRA2 needs 8 to 65535 pixels a side: this image is \(width)x\(height)")
        case Int32(VGN_SSIMULACRA2_NO_MEMORY):
            return ImagingError(.operationFailed, "SSIMULACRA2: out of memory for a \(width)x\(height) image")
        default:
            return ImagingError(.invalidArgument, "SSIMULACRA2 refused a \(width)x\(height) image (status \(status))")
        }
    }
}
