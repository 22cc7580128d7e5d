#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads an EXIF block (a TIFF structure, with or without libvips' `Exif\0\0` prefix) into a flat
/// object: IFD0, the Exif IFD, the GPS IFD and the interoperability IFD, each tag under ExifTool's
/// name and with the value ExifTool prints with `-n` (numbers as numbers, rationals as their
/// quotient, GPS coordinates in decimal degrees, the GPS time as H:M:S, APEX shutter and aperture values in seconds and
/// f-numbers, lists as arrays). IFD1 (the embedded thumbnail's) is left out. Binary values longer
/// than 64 bytes (the maker notes, a user comment) are "(Binary data N bytes)".
///
/// Bounded by the input: every offset is checked against the block, each IFD is read once (a
/// loop of IFDs ends), at most 1000 entries an IFD; a broken block gives what was read before the
/// break.
package enum EXIFReader {
    /// The tags of `block`; an empty object when it is not TIFF.
    public static func read(_ block: Data) -> MetadataValue {
        var bytes = [UInt8](block)
        if bytes.starts(with: Array("Exif\0\0".utf8)) { bytes.removeFirst(6) }
        guard bytes.count >= 8 else { return .object([]) }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return .object([])
        }
        var reader = Reader(bytes: bytes, littleEndian: littleEndian)
        guard reader.u16(2) == 42, let first = reader.u32(4) else { return .object([]) }
        reader.readIFD(at: Int(first), names: Names.main)
        return .object(reader.fields)
    }

    struct Reader {
        let bytes: [UInt8]
        let littleEndian: Bool
        var fields: [MetadataValue.Field] = []
        var visited: Set<Int> = []

        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            let (a, b) = (Int(bytes[offset]), Int(bytes[offset + 1]))
            return littleEndian ? a | b << 8 : a << 8 | b
        }

        func u32(_ offset: Int) -> Int? {
            guard let low = u16(littleEndian ? offset : offset + 2), let high = u16(littleEndian ? offset + 2 : offset) else { return nil }
            return high << 16 | low
        }

        mutating func readIFD(at offset: Int, names: [Int: String]) {
            guard offset >= 8, !visited.contains(offset), let count = u16(offset), count <= 1000 else { return }
            visited.insert(offset)
            for index in 0..<count {
                let entry = offset + 2 + index * 12
                guard let tag = u16(entry), let type = u16(entry + 2), let number = u32(entry + 4) else { return }
                switch tag {
                case 0x8769, 0x8825, 0xA005:
                    // Pointers to the Exif, GPS and interoperability IFDs.
                    if let target = u32(entry + 8) {
                        readIFD(at: target, names: tag == 0x8825 ? Names.gps : Names.main)
                    }
                    continue
                default: break
                }
                guard let value = value(type: type, count: number, entry: entry) else { continue }
                let hex = String(tag, radix: 16, uppercase: true)
                let name = names[tag] ?? "Tag0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                fields.append(MetadataValue.Field(name, EXIFReader.converted(name, value)))
            }
        }

        /// The entry's value: inline when it fits 4 bytes, else at its offset.
        func value(type: Int, count: Int, entry: Int) -> MetadataValue? {
            let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
            guard let size = sizes[type], count > 0, count <= bytes.count else { return nil }
            let length = size * count
            let start = length <= 4 ? entry + 8 : (u32(entry + 8) ?? -1)
            guard start >= 0, start + length <= bytes.count else { return nil }
            switch type {
            case 2:
                let text = bytes[start..<(start + length)].prefix { $0 != 0 }
                return .string(String(decoding: text, as: UTF8.self))
            case 1, 6, 7:
                let raw = Array(bytes[start..<(start + length)])
                if type == 7 {
                    if raw.allSatisfy({ (0x20..<0x7F).contains($0) || $0 == 0 }), raw.contains(where: { $0 != 0 }) {
                        return .string(String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self))
                    }
                    if length > 64 { return .string("(Binary data \(length) bytes)") }
                }
                let values = raw.map { MetadataValue.int(type == 6 ? Int(Int8(bitPattern: $0)) : Int($0)) }
                return values.count == 1 ? values[0] : .array(values)
            default:
                guard count <= 4096 else { return .string("(Binary data \(length) bytes)") }
                var values: [MetadataValue] = []
                for index in 0..<count {
                    let at = start + index * size
                    switch type {
                    case 3: values.append(.int(u16(at) ?? 0))
                    case 8: values.append(.int(Int(Int16(truncatingIfNeeded: u16(at) ?? 0))))
                    case 4: values.append(.int(u32(at) ?? 0))
                    case 9: values.append(.int(Int(Int32(truncatingIfNeeded: u32(at) ?? 0))))
                    case 5, 10:
                        var (numerator, denominator) = (u32(at) ?? 0, u32(at + 4) ?? 0)
                        if type == 10 {
                            numerator = Int(Int32(truncatingIfNeeded: numerator))
                            denominator = Int(Int32(truncatingIfNeeded: denominator))
                        }
                        values.append(denominator == 0 ? .string(numerator == 0 ? "undef" : "inf") : .double(Double(numerator) / Double(denominator)))
                    case 11: values.append(.double(Double(Float(bitPattern: UInt32(truncatingIfNeeded: u32(at) ?? 0)))))
                    default:
                        let high = UInt64(u32(littleEndian ? at + 4 : at) ?? 0), low = UInt64(u32(littleEndian ? at : at + 4) ?? 0)
                        values.append(.double(Double(bitPattern: high << 32 | low)))
                    }
                }
                return values.count == 1 ? values[0] : .array(values)
            }
        }
    }

    /// ExifTool's `-n` conversions: GPS degrees/minutes/seconds to decimal degrees, the GPS time
    /// stamp to H:M:S, APEX shutter
    /// speed (2^-v s) and aperture (2^(v/2)).
    static func converted(_ name: String, _ value: MetadataValue) -> MetadataValue {
        switch (name, value) {
        case ("GPSLatitude", .array(let parts)), ("GPSLongitude", .array(let parts)),
            ("GPSDestLatitude", .array(let parts)), ("GPSDestLongitude", .array(let parts)):
            var degrees = 0.0
            for (index, part) in parts.prefix(3).enumerated() {
                guard case .double(let number) = part else { return value }
                degrees += number / [1.0, 60, 3600][index]
            }
            return .double(degrees)
        case ("GPSTimeStamp", .array(let parts)) where parts.count == 3:
            // ExifTool prints the time as H:M:S, each part as its number.
            let texts = parts.compactMap { part -> String? in
                guard case .double(let number) = part else { return nil }
                return number == number.rounded() ? String(Int(number)) : String(number)
            }
            return texts.count == 3 ? .string(texts.joined(separator: ":")) : value
        case ("ShutterSpeedValue", .double(let apex)): return .double(pow(2, -apex))
        case ("ApertureValue", .double(let apex)), ("MaxApertureValue", .double(let apex)): return .double(pow(2, apex / 2))
        default: return value
        }
    }

    /// ExifTool's names of the tags of IFD0, the Exif IFD and the interoperability IFD, and of the GPS IFD.
    enum Names {
        static let main: [Int: String] = [
            0x0001: "InteropIndex", 0x0002: "InteropVersion", 0x000B: "ProcessingSoftware", 0x00FE: "SubfileType",
            0x0100: "ImageWidth", 0x0101: "ImageHeight", 0x0102: "BitsPerSample", 0x0103: "Compression",
            0x0106: "PhotometricInterpretation", 0x010E: "ImageDescription", 0x010F: "Make", 0x0110: "Model",
            0x0111: "StripOffsets", 0x0112: "Orientation", 0x0115: "SamplesPerPixel", 0x0116: "RowsPerStrip",
            0x0117: "StripByteCounts", 0x011A: "XResolution", 0x011B: "YResolution", 0x011C: "PlanarConfiguration",
            0x0128: "ResolutionUnit", 0x012D: "TransferFunction", 0x0131: "Software", 0x0132: "ModifyDate",
            0x013B: "Artist", 0x013E: "WhitePoint", 0x013F: "PrimaryChromaticities", 0x0201: "ThumbnailOffset",
            0x0202: "ThumbnailLength", 0x0211: "YCbCrCoefficients", 0x0212: "YCbCrSubSampling", 0x0213: "YCbCrPositioning",
            0x0214: "ReferenceBlackWhite", 0x8298: "Copyright", 0x829A: "ExposureTime", 0x829D: "FNumber",
            0x8822: "ExposureProgram", 0x8824: "SpectralSensitivity", 0x8827: "ISO", 0x8830: "SensitivityType",
            0x8831: "StandardOutputSensitivity", 0x8832: "RecommendedExposureIndex", 0x9000: "ExifVersion",
            0x9003: "DateTimeOriginal", 0x9004: "CreateDate", 0x9010: "OffsetTime", 0x9011: "OffsetTimeOriginal",
            0x9012: "OffsetTimeDigitized", 0x9101: "ComponentsConfiguration", 0x9102: "CompressedBitsPerPixel",
            0x9201: "ShutterSpeedValue", 0x9202: "ApertureValue", 0x9203: "BrightnessValue", 0x9204: "ExposureCompensation",
            0x9205: "MaxApertureValue", 0x9206: "SubjectDistance", 0x9207: "MeteringMode", 0x9208: "LightSource",
            0x9209: "Flash", 0x920A: "FocalLength", 0x9214: "SubjectArea", 0x927C: "MakerNote", 0x9286: "UserComment",
            0x9290: "SubSecTime", 0x9291: "SubSecTimeOriginal", 0x9292: "SubSecTimeDigitized", 0xA000: "FlashpixVersion",
            0xA001: "ColorSpace", 0xA002: "ExifImageWidth", 0xA003: "ExifImageHeight", 0xA004: "RelatedSoundFile",
            0xA20B: "FlashEnergy", 0xA20E: "FocalPlaneXResolution", 0xA20F: "FocalPlaneYResolution",
            0xA210: "FocalPlaneResolutionUnit", 0xA214: "SubjectLocation", 0xA215: "ExposureIndex", 0xA217: "SensingMethod",
            0xA300: "FileSource", 0xA301: "SceneType", 0xA302: "CFAPattern", 0xA401: "CustomRendered", 0xA402: "ExposureMode",
            0xA403: "WhiteBalance", 0xA404: "DigitalZoomRatio", 0xA405: "FocalLengthIn35mmFormat", 0xA406: "SceneCaptureType",
            0xA407: "GainControl", 0xA408: "Contrast", 0xA409: "Saturation", 0xA40A: "Sharpness",
            0xA40C: "SubjectDistanceRange", 0xA420: "ImageUniqueID", 0xA430: "OwnerName", 0xA431: "SerialNumber",
            0xA432: "LensInfo", 0xA433: "LensMake", 0xA434: "LensModel", 0xA435: "LensSerialNumber", 0xA500: "Gamma",
            0xC4A5: "PrintIM",
        ]
        static let gps: [Int: String] = [
            0x0000: "GPSVersionID", 0x0001: "GPSLatitudeRef", 0x0002: "GPSLatitude", 0x0003: "GPSLongitudeRef",
            0x0004: "GPSLongitude", 0x0005: "GPSAltitudeRef", 0x0006: "GPSAltitude", 0x0007: "GPSTimeStamp",
            0x0008: "GPSSatellites", 0x0009: "GPSStatus", 0x000A: "GPSMeasureMode", 0x000B: "GPSDOP", 0x000C: "GPSSpeedRef",
            0x000D: "GPSSpeed", 0x000E: "GPSTrackRef", 0x000F: "GPSTrack", 0x0010: "GPSImgDirectionRef",
            0x0011: "GPSImgDirection", 0x0012: "GPSMapDatum", 0x0013: "GPSDestLatitudeRef", 0x0014: "GPSDestLatitude",
            0x0015: "GPSDestLongitudeRef", 0x0016: "GPSDestLongitude", 0x0017: "GPSDestBearingRef", 0x0018: "GPSDestBearing",
            0x0019: "GPSDestDistanceRef", 0x001A: "GPSDestDistance", 0x001B: "GPSProcessingMethod",
            0x001C: "GPSAreaInformation", 0x001D: "GPSDateStamp", 0x001E: "GPSDifferential", 0x001F: "GPSHPositioningError",
        ]
    }
}
