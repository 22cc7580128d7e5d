internal import CVignetteJPEGDC
import VignetteSupport

extension ImagingRuntime {
    /// The process' choice of JPEG decoders, read by every `Thumbnailer` made after it is set.
    private static let jpegDecoders = Locked((own: true, ownScaled: vgn_jpeg_scaled_vectorised() == 1))

    /// Whether thumbnails of JPEGs take Vignette's own decoders where they can (`JPEGDC`: at 1/8
    /// from the blocks' DC coefficients, at 1/4 and 1/2 through the reduced-scale decoders) rather
    /// than libjpeg-turbo's `tjDecompressToYUVPlanes`; both give the same planes. On by default;
    /// off for comparisons with libjpeg-turbo's route (the CLI and the benchmarks map
    /// `VIGNETTE_JPEG_FAST_DC=0` onto it).
    public static var usesOwnJPEGDecoders: Bool {
        get { jpegDecoders.withLock { $0.own } }
        set { jpegDecoders.withLock { $0.own = newValue } }
    }

    /// Whether the 1/4 and 1/2 decodes take the reduced-scale decoders (with
    /// `usesOwnJPEGDecoders`). On by default where they run vectorised (x86-64 with AVX2 and BMI2,
    /// `vgn_jpeg_scaled_vectorised`), where they are faster than libjpeg-turbo's reduced decode;
    /// the CLI and the benchmarks map `VIGNETTE_JPEG_OWN_SCALED=0`/`=1` onto it.
    public static var usesOwnScaledJPEGDecoder: Bool {
        get { jpegDecoders.withLock { $0.ownScaled } }
        set { jpegDecoders.withLock { $0.ownScaled = newValue } }
    }
}
