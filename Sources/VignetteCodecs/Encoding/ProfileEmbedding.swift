#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
internal import CVignetteWebP

/// Puts an ICC profile into encoded bytes that were written without one: what keeps the profile a
/// kept-profile image needs when the rest of its metadata is stripped (libvips 8.14's savers drop
/// the profile with everything else, and libwebp's encoder writes none).
enum ProfileEmbedding {
    /// The bytes of profile an APP2 segment holds: 65535 less the length field (2), the
    /// "ICC_PROFILE\0" tag (12) and the sequence number and count (2).
    static let jpegChunkSize = 65_519

    /// `jpeg` with `profile` in APP2 "ICC_PROFILE" segments (ICC.1, annex B.4: at most 255 of them,
    /// numbered from 1) after the SOI marker and the JFIF APP0 segment, if there is one. Returns
    /// `jpeg` unchanged when it does not start with SOI or the profile needs more than 255 segments.
    static func jpeg(_ jpeg: Data, profile: Data) -> Data {
        let bytes = [UInt8](jpeg)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8, !profile.isEmpty else { return jpeg }
        let count = (profile.count + jpegChunkSize - 1) / jpegChunkSize
        guard count <= 255 else { return jpeg }
        var insertAt = 2
        if bytes.count >= 6, bytes[2] == 0xFF, bytes[3] == 0xE0 {
            let length = Int(bytes[4]) << 8 | Int(bytes[5])
            if 2 + 2 + length <= bytes.count { insertAt = 2 + 2 + length }
        }
        var segments: [UInt8] = []
        segments.reserveCapacity(profile.count + count * 18)
        let profileBytes = [UInt8](profile)
        for index in 0..<count {
            let chunk = profileBytes[(index * jpegChunkSize)..<min(profileBytes.count, (index + 1) * jpegChunkSize)]
            let length = 2 + 12 + 2 + chunk.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]
            segments += Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(count)]
            segments += chunk
        }
        return Data(bytes[..<insertAt] + segments + bytes[insertAt...])
    }

    /// `webp` with `profile` as its ICCP chunk (libwebpmux: `WebPMuxCreate`, `WebPMuxSetChunk`,
    /// `WebPMuxAssemble`, which also writes the VP8X header that says the chunk is there).
    static func webp(_ webp: Data, profile: Data) throws(ImagingError) -> Data {
        let made: OpaquePointer? = webp.withUnsafeBytes { raw in
            var input = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
            // copy_data 1: the mux keeps its own copy of bytes that live only in this closure.
            return WebPMuxCreate(&input, 1)
        }
        guard let mux = made else { throw ImagingError(.operationFailed, "WebPMuxCreate could not read the encoded WebP") }
        defer { WebPMuxDelete(mux) }
        let status = profile.withUnsafeBytes { raw -> WebPMuxError in
            var chunk = WebPData(bytes: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), size: raw.count)
            return WebPMuxSetChunk(mux, "ICCP", &chunk, 1)
        }
        try WebPMuxStatus.check(status, "WebPMuxSetChunk(ICCP)")
        let output = AnimatedWebPEncoder.AssembledData()
        try WebPMuxStatus.check(WebPMuxAssemble(mux, &output.data), "WebPMuxAssemble")
        guard let bytes = output.data.bytes else { throw ImagingError(.operationFailed, "WebPMuxAssemble gave no bytes") }
        return Data(bytes: bytes, count: output.data.size)
    }
}
