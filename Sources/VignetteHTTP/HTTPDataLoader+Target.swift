#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension HTTPDataLoader {
    /// Where a load goes: an http(s) URL as it is, or an `s3://` / `gs://` URL turned into the
    /// request to the configured S3 endpoint, to be signed when it is sent.
    struct Target: Sendable {
        /// The URL as the caller gave it: errors name it, partial downloads are kept under it.
        let address: String
        /// The http(s) URL fetched.
        let url: String
        /// For S3: the request to sign.
        let s3: S3HTTPRequest?

        /// The target of `url`.
        /// - Throws: `HTTPLoadingError(.invalidURL)` for a URL that is neither http(s) with a host
        ///   nor a valid S3 location, or an S3 one when S3 is not configured.
        init(_ url: URL, s3 configuration: S3Configuration?) throws(HTTPLoadingError) {
            let address = url.absoluteString
            self.address = address
            if S3Location.hasScheme(address) {
                guard let configuration else {
                    throw HTTPLoadingError(
                        .invalidURL, url: address,
                        message: "s3:// and gs:// sources need S3 credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)")
                }
                do {
                    let request = try configuration.objectRequest(S3Location(parsing: address))
                    self.url = request.url
                    s3 = request
                } catch {
                    throw HTTPLoadingError(.invalidURL, url: address, message: error.description)
                }
                return
            }
            guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
                throw HTTPLoadingError(.invalidURL, url: address, message: "not an http(s) URL")
            }
            self.url = address
            s3 = nil
        }

        /// An S3 request made here (a listing), named `address` in errors.
        init(s3 request: S3HTTPRequest, address: String) {
            self.address = address
            url = request.url
            s3 = request
        }
    }
}
