#if canImport(Glibc)
import Glibc
#endif
import NIOHTTP1
import Vignette
import VignetteSupport

/// Reads what a response says about caching it: validators (ETag, Last-Modified) and freshness
/// (`Cache-Control: max-age` / `no-cache`, else `Expires`).
package enum CacheHeaders {
    /// `Cache-Control: no-store`: the bytes must not be kept.
    package static func forbidsStoring(_ headers: HTTPHeaders) -> Bool {
        directives(of: headers).contains("no-store")
    }

    /// The validators (`ETag`, `Last-Modified`) and expiry (`Cache-Control: max-age`, `Expires`) of a
    /// response received at `now`; nil when it has neither, or forbids storing (`no-store`).
    package static func metadata(of headers: HTTPHeaders, now: Double) -> ResponseMetadata? {
        let etag = headers.first(name: "ETag")
        let lastModified = headers.first(name: "Last-Modified")
        var expiresAt: Double?
        let directives = directives(of: headers)
        if directives.contains("no-store") { return nil }
        if directives.contains("no-cache") {
            expiresAt = now
        } else if let maxAge = directives.lazy.compactMap(maxAgeSeconds).first {
            expiresAt = now + Double(maxAge)
        } else if let expires = headers.first(name: "Expires") {
            expiresAt = httpDate(expires) ?? now
        }
        let metadata = ResponseMetadata(etag: etag, lastModified: lastModified, expiresAt: expiresAt)
        return metadata.hasValidators || expiresAt != nil ? metadata : nil
    }

    private static func directives(of headers: HTTPHeaders) -> [String] {
        headers[canonicalForm: "Cache-Control"].map { $0.trimmingWhitespace().lowercased() }
    }

    /// A validator fit for If-Range: a strong ETag, else Last-Modified.
    package static func rangeValidator(of headers: HTTPHeaders) -> String? {
        if let etag = headers.first(name: "ETag"), !etag.hasPrefix("W/") { return etag }
        return headers.first(name: "Last-Modified")
    }

    private static func maxAgeSeconds(_ directive: String) -> Int? {
        guard directive.hasPrefix("max-age=") else { return nil }
        return Int(directive.dropFirst("max-age=".count))
    }

    /// Seconds since 1970 of an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), nil otherwise.
    package static func httpDate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]),
            let month = months.firstIndex(of: parts[2].lowercased())
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        // The server's numbers are untrusted: in range before they become Int32s.
        guard clock.count == 3, (1...31).contains(day), (1601...9999).contains(year), (0...23).contains(clock[0]),
            (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(clock[0])
        fields.tm_min = Int32(clock[1])
        fields.tm_sec = Int32(clock[2])
        return Double(timegm(&fields))
    }
}
