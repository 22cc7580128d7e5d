import FuzzSupport
import NIOHTTP1
import VignetteHTTP

/// libFuzzer target: a server's response headers as VignetteHTTP reads them (cache validators and
/// expiry, Content-Length and the size check after resumed bytes, range validators). The input is
/// "Name: value" lines; header values from a server are untrusted.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPHeaders(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: FuzzInput.data(bytes, count), as: UTF8.self)
    var headers = HTTPHeaders()
    for line in text.split(whereSeparator: \.isNewline) {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = line[..<colon]
        // Only what NIO's parser hands over: a header name is a non-empty ASCII token (NIOHTTP1's
        // HTTPHeaders.add traps on anything else, as it must never see it from the wire).
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }) else { continue }
        headers.add(name: String(name), value: String(line[line.index(after: colon)...]).trimmingSpaces)
    }
    _ = CacheHeaders.forbidsStoring(headers)
    _ = CacheHeaders.metadata(of: headers, now: Double(count))
    _ = CacheHeaders.rangeValidator(of: headers)
    for value in headers[canonicalForm: "expires"] { _ = CacheHeaders.httpDate(String(value)) }
    let declared = HTTPDataLoader.contentLength(headers) ?? 0
    _ = HTTPDataLoader.exceeds(count * 1000, declared: declared, after: count)
    return 0
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

@main enum Main {
    static func main() { FuzzInput.main(fuzzHTTPHeaders) }
}
