#if canImport(Glibc)
import Glibc
#endif
import VignetteSupport

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form `Last-Modified` takes.
package enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `seconds` since the epoch, in UTC.
    package static func format(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil, (0...6).contains(parts.tm_wday), (0...11).contains(parts.tm_mon) else { return "" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// A file's modification time in seconds since the epoch (`stat`), for `Last-Modified`; nil
    /// when it cannot be read.
    package static func modificationTime(ofFile path: String) -> Int? {
        (try? FileStatus(path: path))?.modifiedSeconds
    }
}
