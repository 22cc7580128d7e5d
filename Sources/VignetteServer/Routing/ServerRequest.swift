/// One HTTP request as a door (Hummingbird, Vapor, a framework of your own) hands it to
/// `ThumbnailServer.answer(to:mountedAt:logger:)`: what the server's rules read, with no web
/// framework in it.
public struct ServerRequest: Sendable {
    /// The method, as sent: `GET`, `HEAD`, `OPTIONS`, ….
    public var method: String
    /// The path as the client sent it, percent-encoded, without the query (`/img/insecure/…`).
    public var path: String
    /// The header fields, in the order received; names are compared without case.
    public var headers: [(name: String, value: String)]

    /// A request for `path` with `method` and `headers`.
    public init(method: String, path: String, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.path = path
        self.headers = headers
    }

    /// The first value of the header `name` (compared without case); nil when it is absent.
    public subscript(header name: String) -> String? {
        ImageAnswer.firstValue(of: name, in: headers)
    }
}
