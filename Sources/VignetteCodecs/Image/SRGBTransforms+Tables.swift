internal import CVignetteLcms2
internal import CVignetteResize

/// The fast form of an RGB profile's transform: a matrix-shaper profile (three tone curves and
/// three colorants, no lookup table for the intent) converted with `vgn_matrix_shaper_apply`'s
/// tables instead of a littleCMS transform. The numbers come from littleCMS itself (the colorant
/// and curve tags as `cmsReadTag` reads them, `cmsEvalToneCurveFloat`), and the conversion is the
/// one littleCMS' own 8-bit matrix-shaper optimisation makes (within 1 of it on every colour),
/// without its per-pixel formatter calls and without sampling sRGB's curve 49,152 times to build.
extension SRGBTransforms {
    /// The tables for `profile` (open), or nil when it is not an RGB matrix-shaper profile that
    /// littleCMS would convert as one (a profile with an A2B lookup table takes that table).
    static func matrixShaper(_ profile: cmsHPROFILE) -> OpaquePointer? {
        guard cmsGetColorSpace(profile) == cmsSigRgbData, cmsGetPCS(profile) == cmsSigXYZData,
            cmsIsMatrixShaper(profile) != 0,
            cmsIsCLUT(profile, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), cmsUInt32Number(LCMS_USED_AS_INPUT)) == 0,
            let toSRGB = sRGBFromXYZ, let fromRGB = rgbToXYZ(profile)
        else { return nil }
        // Input linear RGB → XYZ (the profile's colorants) → sRGB's linear RGB, as one matrix.
        var matrix = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                matrix[row * 3 + column] = (0..<3).reduce(0) { $0 + toSRGB[row * 3 + $1] * fromRGB[$1 * 3 + column] }
            }
        }
        var curves: [Double] = []
        curves.reserveCapacity(3 * 256)
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let curve = cmsReadTag(profile, tag).map(OpaquePointer.init) else { return nil }
            for value in 0..<256 { curves.append(Double(cmsEvalToneCurveFloat(curve, Float(value) / 255))) }
        }
        return vgn_matrix_shaper_make(matrix, curves)
    }

    /// The matrix from linear RGB to XYZ (D50) of a matrix-shaper profile: its colorants as columns.
    private static func rgbToXYZ(_ profile: cmsHPROFILE) -> [Double]? {
        var matrix = [Double](repeating: 0, count: 9)
        for (column, tag) in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag].enumerated() {
            guard let colorant = cmsReadTag(profile, tag)?.load(as: cmsCIEXYZ.self) else { return nil }
            (matrix[column], matrix[3 + column], matrix[6 + column]) = (colorant.X, colorant.Y, colorant.Z)
        }
        return matrix
    }

    /// The matrix from XYZ (D50) to sRGB's linear RGB: the inverse of littleCMS' built-in sRGB
    /// profile's colorants, the output every transform here converts to.
    private static let sRGBFromXYZ: [Double]? = {
        guard let srgb = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(srgb) }
        guard let m = rgbToXYZ(srgb) else { return nil }
        let determinant = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6])
        guard determinant.isNormal else { return nil }
        let adjugate = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return adjugate.map { $0 / determinant }
    }()
}

extension SRGBTransforms {
    /// Nodes a side of a CMYK grid: littleCMS' own for a CMYK lookup table
    /// (`_cmsReasonableGridpointsByColorspace`).
    static let cmykGridPoints = 17

    /// The CMYK `profile`'s conversion to `output` (sRGB) as a grid of littleCMS' nodes for
    /// `vgn_cmyk_table_apply`: a 16-bit littleCMS transform (the same intent and `flags`) run once
    /// over the nodes, whose values its own 8-bit transform would interpolate between.
    static func cmykGrid(_ profile: cmsHPROFILE, output: cmsHPROFILE, flags: cmsUInt32Number) -> OpaquePointer? {
        guard let handle = cmsCreateTransform(
            profile, vgn_lcms_cmyk16(), output, vgn_lcms_rgb16(), cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags)
        else { return nil }
        defer { cmsDeleteTransform(handle) }
        let points = cmykGridPoints, count = points * points * points * points
        let levels = (0..<points).map { UInt16((Double($0) * 65535 / Double(points - 1)).rounded()) }
        var nodes = [UInt16](repeating: 0, count: count * 4)
        for index in 0..<count {
            var rest = index
            for channel in stride(from: 3, through: 0, by: -1) {
                nodes[index * 4 + channel] = levels[rest % points]
                rest /= points
            }
        }
        var grid = [UInt16](repeating: 0, count: count * 3)
        nodes.withUnsafeBytes { input in
            grid.withUnsafeMutableBytes { output in cmsDoTransform(handle, input.baseAddress, output.baseAddress, cmsUInt32Number(count)) }
        }
        return vgn_cmyk_table_make(grid, Int32(points))
    }
}
