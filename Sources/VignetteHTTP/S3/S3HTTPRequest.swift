import VignetteSupport

/// An HTTP request to an S3 endpoint before it is signed: where it goes (scheme, host, port), the
/// path already URI-encoded as Signature Version 4 wants it, and the query's parameters.
package struct S3HTTPRequest: Sendable, Equatable {
    /// A query parameter, not encoded.
    package struct QueryItem: Sendable, Equatable {
        /// The name, e.g. `versionId`.
        package var name: String
        /// The value (may be empty).
        package var value: String

        /// A parameter `name=value`.
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The method (`GET`).
    package var method: String
    /// `http` or `https`.
    package var scheme: String
    /// The host as it appears in a URL (an IPv6 address in brackets).
    package var host: String
    /// The port when one was given (it stays in the URL, as botocore keeps it; `Host` drops the
    /// scheme's default).
    package var port: Int?
    /// The path, URI-encoded, starting with `/`.
    package var path: String
    /// The query parameters, in the order they are sent.
    package var query: [QueryItem]

    /// A request.
    package init(method: String = "GET", scheme: String, host: String, port: Int?, path: String, query: [QueryItem] = []) {
        self.method = method
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path.isEmpty ? "/" : path
        self.query = query
    }

    /// The `Host` header, the one signed: the host, and `:port` unless it is the scheme's default
    /// (80 for http, 443 for https), as botocore signs it.
    package var hostHeader: String {
        guard let port, port != (scheme == "https" ? 443 : 80) else { return host }
        return "\(host):\(port)"
    }

    /// The query string as sent: each name and value URI-encoded, in order.
    package var queryString: String {
        query.map { S3PercentEncoding.encode($0.name) + "=" + S3PercentEncoding.encode($0.value) }.joined(separator: "&")
    }

    /// The URL the request goes to.
    package var url: String {
        let query = queryString
        let authority = port.map { "\(host):\($0)" } ?? host
        return "\(scheme)://\(authority)\(path)" + (query.isEmpty ? "" : "?" + query)
    }
}
