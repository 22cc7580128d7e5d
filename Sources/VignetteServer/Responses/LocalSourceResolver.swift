#if canImport(Glibc)
import Glibc
import Vignette
#endif
import VignetteSupport

/// Turns the path of a `local:///…` source into a file under the server's root, or refuses it.
///
/// The path is percent-decoded once, then joined to the root, and the result is resolved with
/// `realpath(3)`: `..`, `.`, repeated slashes and symbolic links are all followed by the kernel's
/// own rules before the check, so no spelling (`..%2F`, an absolute path, a link pointing out of the
/// root) reaches a file outside it.
package struct LocalSourceResolver: Sendable {
    /// Why a local source was refused.
    package enum Refusal: ImageFailureConvertible, Sendable, Equatable {
        /// Outside the root (by `..`, an absolute path or a symbolic link), or not decodable.
        case forbidden(String)
        /// Inside the root, but there is no such file.
        case notFound(String)

        /// What a client is told: 403 or 404, with no path in it.
        package var imageFailure: ImageFailure {
            switch self {
            case .forbidden: ImageFailure(.forbidden, reason: "the source is outside the allowed folder")
            case .notFound: .sourceNotFound
            }
        }
    }

    /// The root, resolved (`realpath`), without a trailing slash.
    package let root: String

    /// A resolver for files under `root`; nil when `root` is not an existing folder.
    package init?(root: String) {
        guard let resolved = LocalSourceResolver.realPath(root), Folder.exists(resolved) else { return nil }
        self.root = resolved == "/" ? "" : resolved
    }

    /// The file `path` (the part after `local://`, percent-encoded) names under the root.
    package func resolve(_ path: String) throws(Refusal) -> String {
        guard let decoded = PercentEncoding.decoded(path) else { throw .forbidden("the path is not valid percent-encoding") }
        return try resolve(decoded: decoded)
    }

    /// The file `decoded` (a path as it is, not percent-encoded) names under the root.
    package func resolve(decoded: String) throws(Refusal) -> String {
        guard !decoded.utf8.contains(0) else { throw .forbidden("the path holds a NUL byte") }
        let joined = root + (decoded.hasPrefix("/") ? "" : "/") + decoded
        guard let resolved = LocalSourceResolver.realPath(joined) else {
            // Missing: but refuse a missing path that is already outside by its spelling, so the
            // answer does not reveal what exists outside the root.
            throw lexicallyInside(joined) ? .notFound(decoded) : .forbidden("the path leaves the root")
        }
        guard resolved == root || resolved.hasPrefix(root + "/") else { throw .forbidden("the path leaves the root") }
        guard !Folder.exists(resolved) else { throw .notFound(decoded) }
        return resolved
    }

    /// Whether `path`, with `.` and `..` applied by spelling alone, stays under the root.
    private func lexicallyInside(_ path: String) -> Bool {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if parts.isEmpty { return false }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return ("/" + parts.joined(separator: "/")).hasPrefix(root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
