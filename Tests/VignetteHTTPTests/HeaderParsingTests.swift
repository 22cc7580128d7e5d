import NIOHTTP1
import Testing
@testable import VignetteHTTP

/// The server's header values are untrusted: absurd numbers give nil or a refusal, never a trap.
@Suite struct HeaderParsingTests {
    @Test("Expires: an IMF-fixdate parses; absurd or malformed fields give nil", arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0 as Double?),
        ("Sun, 06 Nov 99999999999999 08:49:37 GMT", nil),
        ("Sun, 06 Nov -9223372036854775808 08:49:37 GMT", nil),
        ("Sun, 99999999999 Nov 1994 08:49:37 GMT", nil),
        ("Sun, 06 Nov 1994 99999999999:49:37 GMT", nil),
        ("Sun, 06 Nov 1994 08:49 GMT", nil),
        ("yesterday", nil),
    ])
    func httpDates(text: String, expected: Double?) {
        #expect(CacheHeaders.httpDate(text) == expected)
    }

    @Test("a bad Expires makes the entry expire now rather than crash")
    func badExpiresInMetadata() {
        let headers = HTTPHeaders([("ETag", "\"x\""), ("Expires", "Sun, 06 Nov 99999999999999 08:49:37 GMT")])
        #expect(CacheHeaders.metadata(of: headers, now: 1000)?.expiresAt == 1000)
    }

    @Test("Content-Length: negative or non-numeric is ignored; a huge one is over any limit without overflowing")
    func contentLength() {
        #expect(HTTPDataLoader.contentLength(HTTPHeaders([("Content-Length", "-5")])) == nil)
        #expect(HTTPDataLoader.contentLength(HTTPHeaders([("Content-Length", "lots")])) == nil)
        #expect(HTTPDataLoader.contentLength(HTTPHeaders([("Content-Length", "42")])) == 42)
        #expect(HTTPDataLoader.exceeds(100, declared: Int.max, after: 60))
        #expect(HTTPDataLoader.exceeds(100, declared: 0, after: 101))
        #expect(!HTTPDataLoader.exceeds(100, declared: 40, after: 60))
        #expect(HTTPDataLoader.exceeds(100, declared: 41, after: 60))
    }
}
