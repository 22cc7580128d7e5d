/// The marker segments of a JPEG's header, from SOI to the first SOS: where each is and what it
/// holds, read without trusting a length (each segment must fit in the bytes given). Used to find
/// and write the segments a gain map lives in (APP1 XMP, APP2 MPF and ISO 21496-1).
package struct JPEGSegments: Sendable {
    /// One segment: its marker (the byte after 0xFF) and where it lies in the file.
    package struct Segment: Sendable, Equatable {
        /// 0xE0 for APP0 … 0xDA for SOS.
        package let marker: UInt8
        /// From its 0xFF to the end of its payload.
        package let whole: Range<Int>
        /// The payload, after the two length bytes.
        package let payload: Range<Int>
    }

    /// The segments in file order; the last is SOS when the header was complete.
    package let segments: [Segment]
    /// The most segments read: a header of more is refused rather than walked.
    static let maximumCount = 4096

    /// The header segments of `bytes`; `.corruptData` when they do not start with SOI or a
    /// segment runs past the end or no SOS is reached.
    package init(_ bytes: [UInt8]) throws(ImagingError) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw Self.corrupt("no JPEG start of image") }
        var found: [Segment] = []
        var index = 2
        while found.count < Self.maximumCount {
            guard index + 1 < bytes.count, bytes[index] == 0xFF else { throw Self.corrupt("no marker at byte \(index)") }
            // Fill bytes: any number of 0xFF before a marker.
            var markerAt = index + 1
            while markerAt < bytes.count, bytes[markerAt] == 0xFF { markerAt += 1 }
            guard markerAt < bytes.count else { throw Self.corrupt("the header ends in fill bytes") }
            let marker = bytes[markerAt]
            // Markers without a length: TEM and RST0–7 (none belongs in a header, but they are harmless).
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index = markerAt + 1
                continue
            }
            guard marker != 0xD9, marker != 0x00 else { throw Self.corrupt("the image ends before its first scan") }
            guard markerAt + 2 < bytes.count else { throw Self.corrupt("a segment's length is cut off") }
            let length = Int(bytes[markerAt + 1]) << 8 | Int(bytes[markerAt + 2])
            let end = markerAt + 1 + length
            guard length >= 2, end <= bytes.count else { throw Self.corrupt("a segment of \(length) bytes runs past the end") }
            found.append(Segment(marker: marker, whole: index..<end, payload: (markerAt + 3)..<end))
            if marker == 0xDA {
                segments = found
                return
            }
            index = end
        }
        throw Self.corrupt("more than \(Self.maximumCount) header segments")
    }

    /// The first APPn segment (`marker` 0xE0 + n) whose payload starts with `signature`.
    package func first(_ marker: UInt8, signature: [UInt8], in bytes: [UInt8]) -> Segment? {
        segments.first { $0.marker == marker && bytes[$0.payload].starts(with: signature) }
    }

    /// The frame's size (SOF0–SOF15 but DHT, JPG and DAC); nil when there is no frame header.
    package func frameSize(in bytes: [UInt8]) -> PixelSize? {
        guard let frame = segments.first(where: { (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker) }),
            frame.payload.count >= 5
        else { return nil }
        let p = frame.payload.lowerBound
        return PixelSize(width: Int(bytes[p + 3]) << 8 | Int(bytes[p + 4]), height: Int(bytes[p + 1]) << 8 | Int(bytes[p + 2]))
    }

    static func corrupt(_ message: String) -> ImagingError { ImagingError(.corruptData, "JPEG header: \(message)") }

    /// An APPn segment of `payload` (marker 0xE0 + n); `.invalidArgument` when it is over 65533 bytes.
    package static func segment(_ marker: UInt8, _ payload: [UInt8]) throws(ImagingError) -> [UInt8] {
        guard payload.count <= 65533 else { throw ImagingError(.invalidArgument, "a JPEG segment holds at most 65533 bytes, not \(payload.count)") }
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
