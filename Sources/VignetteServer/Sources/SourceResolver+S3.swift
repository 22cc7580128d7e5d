#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vignette
import VignetteHTTP

extension SourceResolver {
    /// An `s3://BUCKET/KEY[?versionId=…]` source (or `gs://`, with Google's endpoint): refused (403)
    /// when S3 is not configured or the source is not under an allowed prefix, 400 when it is not a
    /// valid object URL. It goes to the configured endpoint only, so no address check applies: the
    /// URL chooses the bucket and the key, never the host (the loader signs and sends it there).
    func resolveS3(_ source: String) throws(ImageFailure) -> Resolved {
        guard let s3 else { throw .forbidden("s3 sources are not enabled") }
        let location: S3Location
        do { location = try S3Location(parsing: source) } catch { throw .badRequest("the s3 source is not valid: \(error.description)") }
        if location.scheme == "gs" && !s3.readsGoogleStorage { throw .forbidden("gs sources are not enabled") }
        do { _ = try s3.objectRequest(location) } catch { throw .badRequest("the s3 source is not valid: \(error.description)") }
        // The canonical form: the one the prefixes are compared with and the image is named by.
        let canonical = location.description
        guard allowedPrefixes.isEmpty || allowedPrefixes.contains(where: { canonical.hasPrefix($0) }) else {
            throw .forbidden("the source is not under an allowed prefix")
        }
        guard let url = URL(string: canonical) else { throw .badRequest("the s3 source is not valid") }
        return Resolved(source: .url(url), modified: nil)
    }
}
