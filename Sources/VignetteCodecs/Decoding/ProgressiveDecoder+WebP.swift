#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteWebP

/// One libwebp incremental decoder (`WebPIDecoder`), owned by this object and freed with
/// `WebPIDelete` in `deinit`.
///
/// `@unchecked Sendable` because it is only ever used while `ProgressiveDecoder`'s mutex is held:
/// libwebp's decoder is not thread-safe, and it is never touched from two threads at once.
final class WebPIncrementalDecoder: @unchecked Sendable {
    private let handle: OpaquePointer
    let width: Int
    let height: Int
    /// 3 (RGB) or 4 (RGBA, when the bitstream has alpha).
    let bands: Int
    /// Bytes of the file handed to `WebPIAppend` so far.
    private var appended = 0
    /// Rows shown in the last preview.
    private var rowsShown = 0

    private init(handle: OpaquePointer, width: Int, height: Int, bands: Int) {
        self.handle = handle
        self.width = width
        self.height = height
        self.bands = bands
    }

    deinit { WebPIDelete(handle) }

    enum Features {
        case needMoreData
        case broken
        case found(WebPBitstreamFeatures)
    }

    /// The header of the WebP that `data` starts with (`WebPGetFeatures`).
    static func features(of data: Data) -> Features {
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBytes { raw -> VP8StatusCode in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return VP8_STATUS_NOT_ENOUGH_DATA }
            return WebPGetFeatures(base, raw.count, &features)
        }
        if status == VP8_STATUS_NOT_ENOUGH_DATA { return .needMoreData }
        guard status == VP8_STATUS_OK else { return .broken }
        return .found(features)
    }

    enum Start {
        case needMoreData
        /// Animated, over the limits, broken, or libwebp could not make a decoder.
        case refused
        case started(WebPIncrementalDecoder)
    }

    /// Reads the header and, for a still image within `limits`, makes a decoder that writes RGB or
    /// RGBA (`WebPINewRGB` with a buffer libwebp allocates once it has parsed the frame header).
    /// The pixel budget is checked here, before libwebp allocates anything.
    static func start(_ data: Data, limits: DecodingLimits) -> Start {
        let features: WebPBitstreamFeatures
        switch self.features(of: data) {
        case .needMoreData: return .needMoreData
        case .broken: return .refused
        case .found(let found): features = found
        }
        let width = Int(features.width), height = Int(features.height)
        let alpha = features.has_alpha != 0
        guard features.has_animation == 0, width > 0, height > 0,
            (try? limits.check(.ofIncrementalWebP(width: width, height: height, bands: alpha ? 4 : 3))) != nil
        else { return .refused }
        guard let handle = WebPINewRGB(alpha ? MODE_RGBA : MODE_RGB, nil, 0, 0) else { return .refused }
        return .started(WebPIncrementalDecoder(handle: handle, width: width, height: height, bands: alpha ? 4 : 3))
    }

    /// Appends the bytes of `data` not seen yet (`WebPIAppend`) and returns a preview when more
    /// rows are decoded than last time, and whether the decoder is done (image complete or broken).
    func advance(_ data: Data) -> (preview: Image?, done: Bool) {
        guard data.count > appended else { return (nil, false) }
        let status = data.withUnsafeBytes { raw -> VP8StatusCode in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return VP8_STATUS_SUSPENDED }
            return WebPIAppend(handle, base + appended, raw.count - appended)
        }
        appended = data.count
        switch status {
        case VP8_STATUS_SUSPENDED: return (decodedRows(), false)
        case VP8_STATUS_OK: return (decodedRows(), true)
        // A damaged bitstream (or no memory): no preview from what libwebp gave up on.
        default: return (nil, true)
        }
    }

    /// The rows decoded so far (`WebPIDecGetRGB`), copied into a full-size image whose other rows
    /// are zero (black, or transparent with alpha); `nil` when no more rows than last time.
    private func decodedRows() -> Image? {
        var lastRow: Int32 = 0, decodedWidth: Int32 = 0, decodedHeight: Int32 = 0, stride: Int32 = 0
        guard let rows = WebPIDecGetRGB(handle, &lastRow, &decodedWidth, &decodedHeight, &stride) else { return nil }
        let rowBytes = width * bands
        let count = min(Int(lastRow), height)
        guard count > rowsShown, Int(decodedWidth) == width, Int(decodedHeight) == height, Int(stride) >= rowBytes
        else { return nil }
        // libwebp's buffer is not cleared: only the rows it reports as decoded are read.
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        bytes.withUnsafeMutableBytes { out in
            guard let target = out.baseAddress else { return }
            if Int(stride) == rowBytes {
                target.copyMemory(from: rows, byteCount: rowBytes * count)
            } else {
                for y in 0..<count {
                    (target + y * rowBytes).copyMemory(from: rows + y * Int(stride), byteCount: rowBytes)
                }
            }
        }
        guard let image = try? Image(pixels: PixelBuffer(width: width, height: height, bands: bands, bytes: bytes))
        else { return nil }
        rowsShown = count
        return image
    }
}
