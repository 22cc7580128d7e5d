internal import CVignetteVips

/// The interpolation kernel libvips' `vips_resize` uses when reducing or enlarging.
public enum ResizeKernel: String, Sendable, CaseIterable, Codable {
    case nearest, linear, cubic, mitchell, lanczos2, lanczos3

    var vipsValue: Int32 {
        switch self {
        case .nearest: Int32(VIPS_KERNEL_NEAREST.rawValue)
        case .linear: Int32(VIPS_KERNEL_LINEAR.rawValue)
        case .cubic: Int32(VIPS_KERNEL_CUBIC.rawValue)
        case .mitchell: Int32(VIPS_KERNEL_MITCHELL.rawValue)
        case .lanczos2: Int32(VIPS_KERNEL_LANCZOS2.rawValue)
        case .lanczos3: Int32(VIPS_KERNEL_LANCZOS3.rawValue)
        }
    }
}
