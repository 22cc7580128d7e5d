#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteImageShims
internal import CVignetteLcms2
internal import CVignetteResize
internal import CVignetteVips
import VignetteSupport

/// Transforms from an embedded RGB or CMYK profile to sRGB for 8-bit pixels, built once per
/// profile and kept (at most 16): littleCMS transforms, or for a matrix-shaper RGB profile the
/// tables of `vgn_matrix_shaper_apply` (`SRGBTransforms.matrixShaper`), for a CMYK one a grid of
/// littleCMS' nodes (`vgn_cmyk_table_apply`, `SRGBTransforms.cmykGrid`). `Image.convertedToSRGB`
/// takes them for thumbnail-sized 8-bit RGB images, `Image.standardizedToSRGB8` for CMYK ones (with libvips' CMYK profile when the image
/// has none). libvips' `vips_icc_transform` builds its littleCMS transforms on every call, which for
/// a thumbnail costs more than the conversion itself (for a big CMYK profile, many times more).
///
/// Relative colorimetric intent, no black-point compensation, like `Image.convertedToSRGB`'s
/// libvips route; littleCMS' built-in sRGB profile as the output. A transform is shared by every
/// thread (`cmsFLAGS_NOCACHE`, which littleCMS asks of shared transforms); alpha is copied.
enum SRGBTransforms {
    /// One transform: a littleCMS one, or the tables of a matrix-shaper profile
    /// (`SRGBTransforms.matrixShaper`); freed when the last image using it is done with it.
    final class Transform: @unchecked Sendable {
        private enum Kind {
            case littleCMS(cmsHTRANSFORM)
            case matrixShaper(OpaquePointer, bands: Int32)
            case cmykGrid(OpaquePointer)
        }
        private let kind: Kind
        fileprivate init(littleCMS handle: cmsHTRANSFORM) { kind = .littleCMS(handle) }
        fileprivate init(matrixShaper tables: OpaquePointer, bands: Int32) { kind = .matrixShaper(tables, bands: bands) }
        fileprivate init(cmykGrid table: OpaquePointer) { kind = .cmykGrid(table) }
        deinit {
            switch kind {
            case .littleCMS(let handle): cmsDeleteTransform(handle)
            case .matrixShaper(let tables, _): vgn_matrix_shaper_free(tables)
            case .cmykGrid(let table): vgn_cmyk_table_free(table)
            }
        }

        /// Whether it converts with a matrix-shaper profile's tables rather than littleCMS.
        var isMatrixShaper: Bool {
            if case .matrixShaper = kind { return true }
            return false
        }

        /// Whether it converts CMYK through a grid of littleCMS' nodes rather than littleCMS.
        var isCMYKGrid: Bool {
            if case .cmykGrid = kind { return true }
            return false
        }

        /// Converts `count` pixels from `input` to `output` (both in this transform's layout).
        func convert(_ input: UnsafeRawPointer, into output: UnsafeMutableRawPointer, count: Int) {
            switch kind {
            case .littleCMS(let handle):
                cmsDoTransform(handle, input, output, cmsUInt32Number(count))
            case .matrixShaper(let tables, let bands):
                vgn_matrix_shaper_apply(
                    tables, input.assumingMemoryBound(to: UInt8.self), output.assumingMemoryBound(to: UInt8.self), count, bands)
            case .cmykGrid(let table):
                vgn_cmyk_table_apply(
                    table, input.assumingMemoryBound(to: UInt8.self), output.assumingMemoryBound(to: UInt8.self), count)
            }
        }
    }

    /// The pixels a transform takes: RGB, RGBA (alpha copied), or CMYK (to RGB).
    enum Layout: Hashable {
        case rgb, rgba, cmyk
    }

    private struct Key: Hashable {
        let profile: Data
        let layout: Layout
    }

    /// Built transforms, and nil for a profile littleCMS cannot make such a transform from.
    private static let built = Locked<[Key: Transform?]>([:])

    /// The transform from `layout` pixels in `profile` to sRGB (RGB, or RGBA for RGBA); nil when
    /// littleCMS cannot read `profile` or its colour space is not the layout's.
    static func transform(from profile: Data, layout: Layout) -> Transform? {
        let key = Key(profile: profile, layout: layout)
        if let known = built.withLock({ $0[key] }) { return known }
        let made = make(profile, layout: layout)
        built.withLock { built in
            if built.count >= 16 { built.removeAll() }
            built[key] = made
        }
        return made
    }

    private static func make(_ profile: Data, layout: Layout) -> Transform? {
        let input = profile.withUnsafeBytes { bytes -> cmsHPROFILE? in
            guard let base = bytes.baseAddress, bytes.count > 128 else { return nil }
            return cmsOpenProfileFromMem(base, cmsUInt32Number(bytes.count))
        }
        guard let input else { return nil }
        defer { cmsCloseProfile(input) }
        let space = layout == .cmyk ? cmsSigCmykData : cmsSigRgbData
        guard cmsGetColorSpace(input) == space else { return nil }
        if layout != .cmyk, let tables = matrixShaper(input) {
            return Transform(matrixShaper: tables, bands: layout == .rgba ? 4 : 3)
        }
        guard let output = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(output) }
        let inputFormat: cmsUInt32Number
        let outputFormat: cmsUInt32Number
        switch layout {
        case .rgb: (inputFormat, outputFormat) = (vgn_lcms_rgb8(), vgn_lcms_rgb8())
        case .rgba: (inputFormat, outputFormat) = (vgn_lcms_rgba8(), vgn_lcms_rgba8())
        case .cmyk: (inputFormat, outputFormat) = (vgn_lcms_cmyk8(), vgn_lcms_rgb8())
        }
        let flags = cmsUInt32Number(cmsFLAGS_NOCACHE) | (layout == .rgba ? cmsUInt32Number(cmsFLAGS_COPY_ALPHA) : 0)
        if layout == .cmyk {
            return cmykGrid(input, output: output, flags: flags).map(Transform.init(cmykGrid:))
        }
        guard let handle = cmsCreateTransform(
            input, inputFormat, output, outputFormat, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags)
        else { return nil }
        return Transform(littleCMS: handle)
    }
}

extension Image {
    /// The largest image (in pixels) `convertedToSRGB` converts with a kept littleCMS transform,
    /// in memory; bigger ones stream through `vips_icc_transform`.
    static let keptTransformMaximumPixels = 4_000_000

    /// `self` (8-bit RGB or RGBA, or 8-bit CMYK without alpha; `profile` its profile) converted to
    /// sRGB with a kept transform (`SRGBTransforms`), into a memory image with `self`'s metadata and
    /// no profile; nil when that does not apply (other formats, large images, a profile littleCMS
    /// cannot use for these pixels). `self` is computed first (`materialized(cancellation:)`: a lazy
    /// decode's errors and cancellation surface here).
    func convertedWithKeptTransform(profile: Data, cancellation: ImagingCancellation?) throws(ImagingError) -> Image? {
        let alpha = hasAlpha
        let layout: SRGBTransforms.Layout
        switch interpretation {
        case VIPS_INTERPRETATION_sRGB, VIPS_INTERPRETATION_RGB:
            guard bands == (alpha ? 4 : 3) else { return nil }
            layout = alpha ? .rgba : .rgb
        case VIPS_INTERPRETATION_CMYK:
            guard bands == 4, !alpha else { return nil }
            layout = .cmyk
        default:
            return nil
        }
        guard vips_image_get_format(pointer) == VIPS_FORMAT_UCHAR, width * height <= Self.keptTransformMaximumPixels,
            let transform = SRGBTransforms.transform(from: profile, layout: layout)
        else { return nil }
        let source = try materialized(cancellation: cancellation)
        let inputBands = bands, outputBands = layout == .cmyk ? 3 : bands
        let result = try Image(
            width: width, height: height, bands: outputBands, header: source, interpretation: VIPS_INTERPRETATION_sRGB
        ) { output throws(ImagingError) in
            let converted = source.withPixelMemory { input -> Bool in
                guard let input = input.baseAddress, let output = output.baseAddress else { return false }
                // Row by row: littleCMS counts pixels in a 32-bit number.
                for row in 0..<height {
                    transform.convert(input + row * width * inputBands, into: output + row * width * outputBands, count: width)
                }
                return true
            }
            guard converted == true else { throw ImagingError(.invalidArgument, "no pixels in memory to convert") }
        }
        // The result is this function's own: its profile field goes in place, and it stays a
        // memory image (encoders read its pixels without running a libvips pipeline).
        vips_image_remove(result.pointer, "icc-profile-data")
        return result
    }
}
