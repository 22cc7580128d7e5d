#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageFormat {
    /// MPEG-4 (ISO base media file: `ftyp` with an MP4/3GP brand), read through FFmpeg (Video trait).
    public static let mp4 = ImageFormat(rawValue: "mp4")
    /// QuickTime (`ftyp` brand `qt  `, or a file that opens with a `moov`/`mdat`/`wide` atom).
    public static let mov = ImageFormat(rawValue: "mov")
    /// WebM (Matroska with the `webm` doc type).
    public static let webm = ImageFormat(rawValue: "webm")
    /// Matroska.
    public static let mkv = ImageFormat(rawValue: "mkv")
    /// AVI (RIFF `AVI `).
    public static let avi = ImageFormat(rawValue: "avi")
    /// MPEG transport stream (sync byte 0x47 every 188 bytes).
    public static let mpegts = ImageFormat(rawValue: "ts")
    /// Flash video.
    public static let flv = ImageFormat(rawValue: "flv")

    /// The video containers Vignette recognises; their posters are decoded with the Video trait.
    public static let videoFormats: Set<ImageFormat> = [.mp4, .mov, .webm, .mkv, .avi, .mpegts, .flv]

    /// Whether this is a video container (a poster frame is decoded from it).
    public var isVideo: Bool { Self.videoFormats.contains(self) }
}

/// Tells a video container from its first bytes, before any image loader sees them: an `ftyp` box
/// whose brands are not HEIF's or AVIF's, a bare QuickTime atom, EBML, RIFF AVI, MPEG-TS or FLV.
enum VideoContainer {
    /// The container of `data`, or nil when it is not one Vignette reads video from.
    static func sniff(_ data: Data) -> ImageFormat? {
        let head = [UInt8](data.prefix(64))
        func text(_ range: Range<Int>) -> String? {
            guard range.upperBound <= head.count else { return nil }
            return String(decoding: head[range], as: UTF8.self)
        }
        if text(4..<8) == "ftyp", let major = text(8..<12) {
            // HEIF and AVIF stills and sequences are libheif's (ModuleSniffer).
            if heifBrands.contains(major) { return nil }
            return major == "qt  " ? .mov : .mp4
        }
        if let atom = text(4..<8), ["moov", "mdat", "wide", "pnot"].contains(atom) { return .mov }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            return head.windows(ofCount: 4).contains { $0.elementsEqual(Array("webm".utf8)) } ? .webm : .mkv
        }
        if text(0..<4) == "RIFF", text(8..<12) == "AVI " { return .avi }
        if text(0..<3) == "FLV", head.count > 3, head[3] == 1 { return .flv }
        if data.count >= 188 * 2 + 1, data[data.startIndex] == 0x47, data[data.startIndex + 188] == 0x47,
            data[data.startIndex + 376] == 0x47
        {
            return .mpegts
        }
        return nil
    }

    /// Major brands of HEIF/AVIF files (images, image sequences), which are not video here.
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis"]

    /// FFmpeg's demuxer for each container: the only one that may read it (no probing of others).
    static func demuxer(for format: ImageFormat) -> String? {
        switch format {
        case .mp4, .mov: "mov"
        case .webm, .mkv: "matroska"
        case .avi: "avi"
        case .mpegts: "mpegts"
        case .flv: "flv"
        default: nil
        }
    }
}

extension Array where Element == UInt8 {
    /// Every run of `count` consecutive bytes.
    fileprivate func windows(ofCount count: Int) -> [ArraySlice<UInt8>] {
        guard self.count >= count else { return [] }
        return (0...(self.count - count)).map { self[$0..<($0 + count)] }
    }
}
