import Vignette
import VignetteSupport

extension ImgproxyOptions {
    /// The options of an imgproxy URL about the response rather than the image: when the URL
    /// expires, the file name and disposition, and whether the source is sent as it is.
    public struct Delivery: Sendable, Hashable {
        /// Unix time after which the URL answers 404 (`expires`, `exp`).
        public var expires: Int?
        /// The file name for `Content-Disposition` (`filename`, `fn`), decoded.
        public var filename: String?
        /// Whether `Content-Disposition` says `attachment` (`return_attachment`, `att`).
        public var returnAttachment = false
        /// Whether the source's bytes are sent as they are (`raw`).
        public var raw = false
        /// Source formats sent as they are when the result would be of the same format
        /// (`skip_processing`, `skp`).
        public var skipProcessing: Set<ImageFormat> = []

        /// Nothing asked for.
        public init() {}

        /// Whether the URL has expired at `now` (Unix seconds).
        public func hasExpired(now: Int) -> Bool { expires.map { now > $0 } ?? false }

        mutating func apply(_ arguments: Arguments) throws(ImagingError) {
            switch arguments.option {
            case "expires", "exp":
                try arguments.count(1...1)
                expires = try arguments.integer(0, in: 0...Int(Int64.max >> 1))
            case "filename", "fn":
                try arguments.count(1...2)
                let encoded = arguments.has(1) ? try arguments.flag(1) : false
                filename = try Self.filename(arguments.values[0], encoded: encoded, option: arguments.option)
            case "return_attachment", "att":
                try arguments.count(1...1)
                returnAttachment = try arguments.flag(0)
            case "raw":
                try arguments.count(1...1)
                raw = try arguments.flag(0)
            default:
                var formats: Set<ImageFormat> = []
                for index in arguments.values.indices where arguments.has(index) {
                    formats.insert(try ImgproxyOptions.sourceFormat(arguments.values[index]))
                }
                skipProcessing = formats
            }
        }

        /// The name, from percent-encoding or URL-safe base64; control characters, quotes,
        /// backslashes and slashes are refused so the header stays one safe line.
        static func filename(_ text: Substring, encoded: Bool, option: String) throws(ImagingError) -> String {
            let decoded: String?
            if encoded {
                decoded = Base64URL.decode(text).flatMap { String(validating: $0, as: UTF8.self) }
            } else {
                decoded = PercentEncoding.decoded(String(text))
            }
            guard let name = decoded, !name.isEmpty, name.utf8.count <= 255,
                !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || "\"\\/".unicodeScalars.contains($0) })
            else { throw ImgproxyOptions.invalid("\(option): not a usable file name") }
            return name
        }
    }

    /// A source format `skip_processing` names: the names `format` takes.
    static func sourceFormat(_ text: Substring) throws(ImagingError) -> ImageFormat {
        do {
            return try format(text)
        } catch {
            throw invalid("skip_processing: unknown format \(shown(String(text)))")
        }
    }
}
