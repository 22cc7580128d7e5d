#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import AsyncHTTPClient
import NIOCore
import Vignette

extension HTTPDataLoader {
    /// The objects whose keys start with `location.key` in its bucket (ListObjectsV2 through the
    /// configured S3 endpoint, every page, following `NextContinuationToken`), in S3's order (by
    /// the keys' UTF-8 bytes), `pageSize` keys a request (nil: S3's 1000). The requests go through
    /// this loader like its loads: the same client, rate limiter, timeouts and size limit.
    /// - Throws: `HTTPLoadingError` (`.invalidURL` when S3 is not configured or a `gs://` location
    ///   has no Google endpoint, `.badStatus` with S3's error code, `.invalidResponse` for a page
    ///   that is not a listing, `.responseTooLarge` past `maximumKeys`), or `CancellationError`.
    public func listS3Objects(
        under location: S3Location, pageSize: Int? = nil, maximumKeys: Int = 1_000_000
    ) async throws -> [S3Location] {
        let address = location.description + (location.description.contains("?") ? "&" : "?") + "list-type=2"
        guard let s3 = configuration.s3 else {
            throw HTTPLoadingError(.invalidURL, url: address, message: "listing needs S3 credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)")
        }
        do { try s3.check(location.scheme) } catch { throw HTTPLoadingError(.invalidURL, url: address, message: error.description) }
        var keys: [S3Location] = []
        var token: String?
        repeat {
            let target = Target(s3: s3.listRequest(
                bucket: location.bucket, prefix: location.key, continuationToken: token, maxKeys: pageSize), address: address)
            let page: S3ListingPage
            do {
                page = try S3ListingPage(xml: Array(try await get(target)))
            } catch let error as S3ListingPage.Malformed {
                throw HTTPLoadingError(.invalidResponse, url: address, message: error.description)
            }
            keys += page.keys.map(location.object)
            if keys.count > maximumKeys {
                throw HTTPLoadingError(.responseTooLarge, url: address, message: "the listing has more than \(maximumKeys) keys")
            }
            if let next = page.nextContinuationToken, next == token {
                throw HTTPLoadingError(.invalidResponse, url: address, message: "the listing gave the same continuation token twice")
            }
            token = page.nextContinuationToken
        } while token != nil
        return keys
    }

    /// The body of a GET of `target` (a 2xx answer), within the size limit.
    func get(_ target: Target) async throws -> Data {
        if let limiter = configuration.rateLimiter { try await limiter.acquire() }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoingRequest(to: target), timeout: TimeAmount(configuration.requestTimeout))
        } catch {
            throw Self.translate(error, url: target.address)
        }
        let status = Int(response.status.code)
        guard (200...299).contains(status), status != 206 else { throw await badStatus(response, of: target) }
        let ignored = DataLoadingContext(received: { _, _ in }, progress: { _, _ in })
        return try await receiveBody(of: response, after: Data(), url: target.address, context: ignored, resumable: false)
    }
}
