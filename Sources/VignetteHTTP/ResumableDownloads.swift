#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette
import VignetteSupport

/// The partial bytes of downloads that were cancelled or broke off, kept (in memory, up to a byte
/// limit, oldest dropped first) so that the next load of the URL asks only for the rest
/// (`Range` + `If-Range`).
final class ResumableDownloads: Sendable {
    struct Partial: Sendable {
        var data: Data
        /// A strong ETag or the Last-Modified date, sent back as If-Range.
        var validator: String
    }

    private let limit: Int
    private let state = Locked<(entries: [String: Partial], order: [String], bytes: Int)>(([:], [], 0))

    init(limit: Int) { self.limit = limit }

    /// Keeps `partial` for `url` (replacing what was there) unless it is empty or over the limit.
    func keep(_ partial: Partial, for url: String) {
        guard !partial.data.isEmpty, partial.data.count <= limit else { return }
        state.withLock { state in
            Self.remove(url, from: &state)
            state.entries[url] = partial
            state.order.append(url)
            state.bytes += partial.data.count
            while state.bytes > limit, let oldest = state.order.first {
                Self.remove(oldest, from: &state)
            }
        }
    }

    /// Takes the partial bytes for `url` out of the store.
    func take(for url: String) -> Partial? {
        state.withLock { state in
            let partial = state.entries[url]
            Self.remove(url, from: &state)
            return partial
        }
    }

    var count: Int { state.withLock { $0.entries.count } }

    private static func remove(_ url: String, from state: inout (entries: [String: Partial], order: [String], bytes: Int)) {
        guard let old = state.entries.removeValue(forKey: url) else { return }
        state.bytes -= old.data.count
        state.order.removeAll { $0 == url }
    }
}
