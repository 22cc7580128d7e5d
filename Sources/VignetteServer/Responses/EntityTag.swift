import Vignette

/// A strong `ETag` made from the result's key (source identity, options, encoding), so it is
/// known before any work and a matching `If-None-Match` is answered 304 without any.
package struct EntityTag: Sendable, Equatable {
    /// The header value, quoted.
    package let value: String

    package init(resultKey: String) {
        value = "\"" + DataCache.digest(of: Array(resultKey.utf8)).prefix(32) + "\""
    }

    /// Whether an `If-None-Match` header names this tag (or `*`). Weak comparison, as RFC 9110
    /// asks for `If-None-Match`: a `W/` prefix is ignored.
    package func matches(ifNoneMatch header: String?) -> Bool {
        guard let header else { return false }
        for candidate in header.split(separator: ",") {
            var tag = candidate.drop { $0 == " " || $0 == "\t" }
            while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == value[...] { return true }
        }
        return false
    }
}
