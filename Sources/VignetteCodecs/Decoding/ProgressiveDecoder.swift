#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

/// Decodes previews from the partial data of a download that is still arriving.
///
/// Call `preview(from:)` with all the bytes received so far each time more have arrived; it
/// returns a new preview only when there is something new to show since the last one it returned.
/// Two kinds of input give previews:
///
/// - **Still WebP** (lossy, lossless, with or without alpha), decoded row by row with libwebp's
///   incremental decoder (`WebPINewRGB`, `WebPIAppend`, `WebPIDecGetRGB`), after the header has
///   been read with `WebPGetFeatures`. A preview comes whenever more rows are decoded than in the
///   last one. It has the full size of the image; rows not decoded yet are transparent (RGBA,
///   when the bitstream has alpha) or black (RGB, when it has none). Animated WebP gives none.
/// - **Progressive JPEG** (SOF2, or SOF10 for arithmetic coding), decoded with libvips
///   (`vips_image_new_from_source` with `fail_on=none`, then `vips_image_copy_memory`). The bytes are
///   walked marker by marker; a scan is complete once the marker after its entropy-coded data has
///   arrived. A preview comes whenever more scans are complete than in the last one: the data up
///   to the end of the last complete scan, closed with an EOI marker, decoded at full size. A
///   partly received scan is left out, so each preview is clean (no half-refined band).
///   Baseline JPEG gives none: its partial decode is only a band of the top rows.
///
/// Every other format (PNG, GIF, HEIF, …) gives no previews. Partial, damaged or hostile input
/// never throws: it gives `nil`. The `limits` are checked from the header before any pixels are
/// allocated (pixel budget from the WebP features or the JPEG frame header, byte budget on the
/// data), and a refused input gives no previews at all.
///
/// Previews are as decoded, like `ImageDecoder.decode(_:)`: the EXIF orientation is not applied
/// (see `Image.autoOriented()`), and a JPEG preview has the full size of the image (no
/// shrink-on-load), so each one costs a full decode.
///
/// The data is expected to be a growing prefix of one file. Given the same length again, nothing
/// is decoded and the answer is `nil`. Given fewer bytes than last time, the decoder takes it for
/// a download that started over and starts over too.
///
/// The decoder is `Sendable`: its state (the libwebp decoder, the JPEG marker walk) is kept behind
/// a mutex (`Locked`), so calls from several threads are serialised, one decode at a time.
/// The libwebp decoder is freed (`WebPIDelete`) as soon as the image is complete, refused or
/// broken, and at the latest when this object goes away.
public final class ProgressiveDecoder: Sendable {
    /// The budgets checked before decoding; `failOn` is not used (partial data is decoded leniently).
    public let limits: DecodingLimits

    /// When set, JPEG previews may be decoded smaller, with libjpeg's DCT scaling (shrink-on-load
    /// 1/2, 1/4, 1/8), as long as both sides stay at least this long: a preview for a 256-px
    /// thumbnail of a 12-MP photo then costs a 1/8 decode. WebP previews are always full size.
    public let minimumPreviewSide: Int?

    private let state = Locked(State())

    /// Makes a decoder for one download.
    public init(limits: DecodingLimits = .untrusted, minimumPreviewSide: Int? = nil) {
        self.limits = limits
        self.minimumPreviewSide = minimumPreviewSide
    }

    /// Whether no more previews will come, whatever bytes follow: the format gives none
    /// (baseline JPEG, PNG, animated WebP, …), the limits refuse the image, the data is broken, or
    /// the image is complete. A pipeline can stop calling `preview(from:)` once this is true.
    public var isFinished: Bool {
        state.withLock { state in
            if case .finished = state.phase { return true }
            return false
        }
    }

    /// A preview decoded from `data`, all the bytes received so far, or `nil` when there is
    /// nothing new to show since the last preview returned (or nothing at all to show).
    ///
    /// WebP: the bytes past those seen last time go to `WebPIAppend`, and the rows decoded so far
    /// (`WebPIDecGetRGB`) make the preview when there are more of them than last time.
    /// Progressive JPEG: when more scans are complete than last time, libvips decodes the data up
    /// to the end of the last complete scan. Never throws; broken or refused input gives `nil`.
    public func preview(from data: Data) -> Image? {
        state.withLock { state in
            if data.count < state.seen { state = State() }
            guard data.count > state.seen else { return nil }
            state.seen = data.count
            if data.count > limits.maxInputBytes {
                state.phase = .finished
                return nil
            }
            return step(&state, data)
        }
    }

    /// Whether the file that starts with `prefix` can give previews: `true` for a progressive JPEG
    /// or a still WebP, `false` for anything else (baseline JPEG, PNG, animated WebP, unknown or
    /// broken bytes), `nil` when the prefix is too short to tell (the JPEG frame header or the WebP
    /// header has not arrived yet). Reads markers and headers only (`WebPGetFeatures` for WebP).
    public static func isProgressive(_ prefix: Data) -> Bool? {
        switch Kind.sniff(prefix) {
        case nil: return nil
        case .other: return false
        case .webp:
            switch WebPIncrementalDecoder.features(of: prefix) {
            case .needMoreData: return nil
            case .broken: return false
            case .found(let features): return features.has_animation == 0
            }
        case .jpeg:
            var reader = JPEGScanReader()
            prefix.withUnsafeBytes { reader.read($0, untilFrame: true) }
            if reader.isCorrupt { return false }
            return reader.isProgressive
        }
    }

    // MARK: - State

    /// What kind of file the bytes start with.
    enum Kind {
        case jpeg, webp, other

        /// `nil` while the prefix is too short to tell.
        static func sniff(_ data: Data) -> Kind? {
            let head = [UInt8](data.prefix(12))
            if head.count >= 2, head[0] == 0xFF, head[1] == 0xD8 { return .jpeg }
            let riff: [UInt8] = Array("RIFF".utf8), webp: [UInt8] = Array("WEBP".utf8)
            if head.count >= 12, Array(head[0..<4]) == riff, Array(head[8..<12]) == webp { return .webp }
            // Could the bytes still become one of the two signatures?
            if head.count < 2, head.first.map({ $0 == 0xFF }) ?? true { return nil }
            if head.count < 12, head.prefix(4).elementsEqual(riff.prefix(min(4, head.count))),
                head.count <= 8 || head[8...].elementsEqual(webp.prefix(head.count - 8))
            {
                return nil
            }
            return .other
        }
    }

    enum Phase: Sendable {
        /// Fewer bytes than the signature so far.
        case sniffing
        /// A WebP whose header (`WebPGetFeatures`) is not complete yet.
        case webpHeader
        case webp(WebPIncrementalDecoder)
        /// A JPEG, with the number of complete scans the last preview showed.
        case jpeg(JPEGScanReader, shownScans: Int)
        /// No more previews will come.
        case finished
    }

    struct State: Sendable {
        var phase = Phase.sniffing
        /// The length of the data of the last call.
        var seen = 0
    }

    private func step(_ state: inout State, _ data: Data) -> Image? {
        if case .sniffing = state.phase {
            switch Kind.sniff(data) {
            case nil: return nil
            case .other: state.phase = .finished
            case .webp: state.phase = .webpHeader
            case .jpeg: state.phase = .jpeg(JPEGScanReader(), shownScans: 0)
            }
        }
        switch state.phase {
        case .sniffing, .finished:
            return nil
        case .webpHeader:
            switch WebPIncrementalDecoder.start(data, limits: limits) {
            case .needMoreData:
                return nil
            case .refused:
                state.phase = .finished
                return nil
            case .started(let decoder):
                state.phase = .webp(decoder)
                return webpStep(&state, decoder, data)
            }
        case .webp(let decoder):
            return webpStep(&state, decoder, data)
        case .jpeg(var reader, let shown):
            let (preview, scans, done) = jpegStep(&reader, shown: shown, data)
            state.phase = done ? .finished : .jpeg(reader, shownScans: scans)
            return preview
        }
    }

    private func webpStep(_ state: inout State, _ decoder: WebPIncrementalDecoder, _ data: Data) -> Image? {
        let (preview, done) = decoder.advance(data)
        // Dropping the decoder frees libwebp's state (WebPIDelete in its deinit).
        if done { state.phase = .finished }
        return preview
    }
}
