#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Log lines as JSON objects on standard error, one a line, for `IMGPROXY_LOG_FORMAT=json` or
/// `gcp`: the time, the level, the message, then the metadata as strings. `json` names them as
/// imgproxy's JSON logs do (`time`, `level`, `msg`), `gcp` as Google Cloud Logging reads them
/// (`time`, `severity` in capitals, `message`).
struct JSONLogHandler: LogHandler {
    let label: String
    let googleCloud: Bool
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let own = event.metadata { fields.merge(own) { _, new in new } }
        let level = googleCloud ? Self.severity(event.level) : Self.name(event.level)
        var pairs: [(String, JSONValue)] = [
            ("time", .string(Date().formatted(.iso8601))), (googleCloud ? "severity" : "level", .string(level)),
            (googleCloud ? "message" : "msg", .string(event.message.description)), ("logger", .string(label)),
        ]
        pairs += fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.description)) }
        Console.write(JSONValue.object(pairs).text + "\n")
    }

    /// imgproxy's level names.
    static func name(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "debug"
        case .info, .notice: "info"
        case .warning: "warn"
        case .error, .critical: "error"
        }
    }

    /// Google Cloud Logging's severities.
    static func severity(_ level: Logger.Level) -> String {
        switch level {
        case .trace, .debug: "DEBUG"
        case .info: "INFO"
        case .notice: "NOTICE"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .critical: "CRITICAL"
        }
    }
}
