/// AWS credentials for signing S3 requests (an access key, or temporary credentials with their
/// session token). They never appear in a description, a log line or an error: `description`
/// names only the access key id's first four characters.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The access key id (`AWS_ACCESS_KEY_ID`), sent in the clear in every request's credential scope.
    public var accessKeyID: String
    /// The secret access key (`AWS_SECRET_ACCESS_KEY`): only ever used as an HMAC key.
    public var secretAccessKey: String
    /// The session token of temporary credentials (`AWS_SESSION_TOKEN`), sent as `x-amz-security-token`.
    public var sessionToken: String?

    /// Credentials from their parts.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The standard environment variables `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and
    /// `AWS_SESSION_TOKEN` (optional), read through `environment` (name to value, nil when unset);
    /// nil unless both the key id and the secret are set and not empty.
    public static func fromEnvironment(_ environment: (String) -> String?) -> S3Credentials? {
        guard let id = environment("AWS_ACCESS_KEY_ID"), !id.isEmpty,
            let secret = environment("AWS_SECRET_ACCESS_KEY"), !secret.isEmpty
        else { return nil }
        let token = environment("AWS_SESSION_TOKEN").flatMap { $0.isEmpty ? nil : $0 }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }

    /// `S3Credentials(AKIA…)`: no secret, no token.
    public var description: String { "S3Credentials(\(accessKeyID.prefix(4))…)" }

    /// The same as `description`.
    public var debugDescription: String { description }

    /// The key id's first characters only, so `dump` and the debugger show no secret either.
    public var customMirror: Mirror { Mirror(self, children: ["accessKeyID": "\(accessKeyID.prefix(4))…"]) }
}
