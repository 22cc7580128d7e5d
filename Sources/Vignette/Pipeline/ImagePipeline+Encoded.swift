#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Tracing

extension ImagePipeline {
    /// `request`'s result encoded as `encoding`: the bytes a service sends.
    ///
    /// Encoded results are a product of the pipeline: memory cache of encoded bytes
    /// (`Configuration.encodedImageCache`) → disk cache (under the processed key plus the
    /// encoding's id) → the shared cache (`Configuration.sharedCache`, e.g. Redis; a hit fills
    /// the disk and memory caches) → the task graph, where the encode is one node (coalesced, at its most urgent
    /// subscriber's priority, cancelled when the last one leaves, run on the encoding stage) over
    /// the image node (decode or thumbnail, then processors) or the memory-cached image. A hit
    /// returns the stored bytes with no decode and no encode. The encoded bytes go to the memory
    /// cache once, to the disk cache once (its writer does the I/O) and to the shared cache once (in
    /// the background), whoever asked; the decoded
    /// image made on the way is not kept in the image cache.
    public func encodedImage(for request: ImageRequest, as encoding: OutputEncoding) async throws(ImagePipelineError) -> EncodedResponse {
        metrics.encodedRequests.increment()
        // Untraced, a direct call: a memory hit costs what it did before tracing existed.
        guard tracer != nil else { return try await encodedImage(for: request, as: encoding, trace: nil) }
        return try await traced("vignette.encoded_image") { trace throws(ImagePipelineError) in
            try await encodedImage(for: request, as: encoding, trace: trace)
        }
    }

    func encodedImage(for request: ImageRequest, as encoding: OutputEncoding, trace: PipelineTrace?) async throws(ImagePipelineError) -> EncodedResponse {
        do {
            try checkValid()
            try check(request)
            if let cache = configuration.encodedImageCache, request.readsMemoryCache {
                let hit = cache[request, encoding]
                trace?.mark("vignette.cache.memory") { $0["vignette.cache.hit"] = hit != nil }
                if let hit {
                    metrics.encodedMemoryHits.increment()
                    return EncodedResponse(image: hit, cacheType: .memory)
                }
            }
            let result = try await subscribe(
                to: { self.encodeWork(for: request, encoding: encoding, trace: trace) }, priority: request.priority, task: nil)
            switch result.cacheType {
            case .disk: metrics.encodedDiskHits.increment()
            case .shared: metrics.sharedHits.increment()
            default: break
            }
            return EncodedResponse(image: result.image, cacheType: result.cacheType)
        } catch {
            let failure: ImagePipelineError = Task.isCancelled && !(error is ImagePipelineError) ? .cancelled : .wrapping(error)
            metrics.failed(failure)
            throw failure
        }
    }

    /// The key `encodedImage(for:as:)` stores `request`'s result under on disk: the image id (for
    /// a file, its path, size and modification time), the thumbnail options, the processors'
    /// identifiers and the encoding's id. Equal keys mean equal bytes for as long as the source is
    /// unchanged, so a server can make its `ETag` from it without doing the work.
    public func resultKey(for request: ImageRequest, as encoding: OutputEncoding) -> String {
        DiskKeys.encoded(request, encoding)
    }

    struct EncodeResult: Sendable {
        let image: EncodedImage
        /// The cache it was found in; nil when it was made.
        let cacheType: ImageResponse.CacheType?
    }

    /// The shared work that finds or makes `request`'s result encoded as `encoding`; a new node's
    /// spans go under `trace`. Its steps: the stored result (disk, then shared), else the result
    /// made (`madeResult`), its gain map kept (`keepingGainMap`), and the result stored.
    func encodeWork(for request: ImageRequest, encoding: OutputEncoding, trace: PipelineTrace?) -> SharedWork<EncodeResult> {
        let key = GraphKey(EncodedImageKey(request, encoding), request)
        return node(in: \.encodes, key: key, priority: request.priority, trace: trace, kind: "encode") { [self] work in
            let diskKey = DiskKeys.encoded(request, encoding)
            if let stored = try await storedResult(for: request, encoding: encoding, diskKey: diskKey, work: work) { return stored }
            let limits = request.limits(within: configuration.decodingLimits)
            var (encoded, loaded) = try await madeResult(for: request, encoding: encoding, limits: limits, work: work)
            if encoding.keepsGainMap, encoded.format == .jpeg {
                let source = if let loaded { loaded } else { try await work.value(of: loadWork(for: request, trace: work.trace)) }
                let primary = encoded
                encoded = try await work.run(on: self.encoding, span: "vignette.gain_map") { [self] _ in
                    keepingGainMap(primary, source: source, request: request, limits: limits)
                }
            }
            if let source = try await sourceInstead(of: encoded, request: request, encoding: encoding, loaded: loaded, work: work) {
                encoded = source
            }
            storeResult(encoded, for: request, encoding: encoding, diskKey: diskKey)
            return EncodeResult(image: encoded, cacheType: nil)
        }
    }

    /// Whether results of `request` are read from the disk and shared caches.
    private func readsStoredResults(_ request: ImageRequest) -> Bool {
        !request.options.contains(.disableDiskCacheReads) && !request.options.contains(.reloadIgnoringCachedData)
    }

    /// Whether results of `request` are written to the disk cache.
    private func writesResultsToDisk(_ request: ImageRequest) -> Bool {
        !request.options.contains(.disableDiskCacheWrites) && configuration.dataCachePolicy.storesEncodedImage(hasProcessing: true)
    }

    /// The result stored under `diskKey` on disk, else in the shared cache (a shared hit fills the
    /// disk cache), put in the memory cache; nil when neither has it.
    private func storedResult(
        for request: ImageRequest, encoding: OutputEncoding, diskKey: String, work: SharedWork<EncodeResult>
    ) async throws -> EncodeResult? {
        guard readsStoredResults(request) else { return nil }
        let dataCache = configuration.dataCache
        if let dataCache {
            // Blocking disk I/O and a header read: on a pipeline thread, not the cooperative pool.
            let found = try await work.run(on: disk, span: "vignette.cache.disk") { span in
                let found = ImagePipeline.encodedImage(in: dataCache.data(for: diskKey))
                span?.setLookup(hit: found != nil, content: "result")
                return found
            }
            if let found {
                storeEncodedInMemory(found, for: request, encoding: encoding)
                return EncodeResult(image: found, cacheType: .disk)
            }
        }
        if let sharedCache = configuration.sharedCache {
            // The lookup may wait for the shared cache's timeout: on its own threads.
            let found = try await work.run(on: shared, span: "vignette.cache.shared") { span in
                let found = ImagePipeline.encodedImage(in: sharedCache.entry(for: diskKey)?.data)
                span?.setSharedLookup(hit: found != nil, content: "result", layer: sharedCache.layerName)
                return found
            }
            if let found {
                storeEncodedInMemory(found, for: request, encoding: encoding)
                if let dataCache, writesResultsToDisk(request) { dataCache.storeData(found.data, for: diskKey) }
                return EncodeResult(image: found, cacheType: .shared)
            }
        }
        return nil
    }

    /// `request`'s result made and encoded, by the cheapest way that applies: an SVG passed
    /// through sanitised; the memory-cached image encoded; an animation kept frame by frame; a
    /// thumbnail with nothing else in one decode-and-encode pass; else the image node (decode,
    /// then each processor) encoded. With the source's bytes when they were loaded here (a gain
    /// map is taken from them).
    private func madeResult(
        for request: ImageRequest, encoding: OutputEncoding, limits: DecodingLimits, work: SharedWork<EncodeResult>
    ) async throws -> (encoded: EncodedImage, loaded: Data?) {
        if encoding.passesSVGThrough {
            let data = try await work.value(of: loadWork(for: request, trace: work.trace))
            let svg = try await work.run(on: decoding, span: "vignette.sanitize_svg") { _ throws -> EncodedImage in
                do throws(ImagingError) {
                    let (svg, size) = try SVGDocument.sanitized(data, limits: limits)
                    return EncodedImage(data: svg, format: .svg, width: size.width, height: size.height)
                } catch {
                    throw ImagePipelineError.encodingFailed(error)
                }
            }
            return (svg, data)
        }
        // An animation is told from a still by its bytes: those requests load them first.
        let mayKeepFrames = encoding.animatedFormat != nil && request.keptFrames == .all
        if !mayKeepFrames, let cached = cachedImage(for: request), !cached.isPreview {
            return (try await encoded(cached.image, as: encoding, limits: limits, work: work), nil)
        }
        var loaded: Data?
        if mayKeepFrames {
            let data = try await work.value(of: loadWork(for: request, trace: work.trace))
            loaded = data
            if Animation.mightBeAnimated(prefix: data.prefix(21)) {
                // Thumbnailed on load, or decoded whole (a trim or a crop first): one path for both.
                var placed: ThumbnailOptions?
                if let thumbnail = request.thumbnail { placed = try await keepingFaces(thumbnail, request: request, data: data, work: work) }
                let animated = try await work.run(on: decoding, span: "vignette.decode_encode") { [self, placed] cancellation, span in
                    try encodedAnimation(
                        data, request: request, thumbnail: placed, as: encoding, limits: limits, cancellation: cancellation, span: span)
                }
                if let animated { return (animated, data) }
            }
        }
        let onePass = request.processors.isEmpty && encoding.maxBytes == 0 && encoding.search == nil
        if let thumbnail = request.thumbnail, onePass {
            let data: Data
            if let loaded { data = loaded } else { data = try await work.value(of: loadWork(for: request, trace: work.trace)) }
            // A thumbnail and nothing else: decoded, resized and encoded in one libvips
            // pass (the thumbnail is never held in memory in between), on a decoding thread.
            let thumbnail = try await keepingFaces(thumbnail, request: request, data: data, work: work)
            let made = try await work.run(on: decoding, span: "vignette.decode_encode") { [self] cancellation, span in
                try encodedThumbnail(
                    data, thumbnail: thumbnail, as: encoding, limits: limits, cancellation: cancellation, span: span,
                    warnings: warnings(for: request))
            }
            return (made, data)
        }
        // A JPEG may keep the source's gain map, read from its bytes: loaded once, here.
        if loaded == nil, encoding.keepsGainMap { loaded = try await work.value(of: loadWork(for: request, trace: work.trace)) }
        // The image node (decode, then each processor), given the bytes loaded here.
        let container = try await work.value(
            of: imageWork(for: request, processorCount: request.processors.count, loaded: loaded, trace: work.trace))
        return (try await encoded(container.image, as: encoding, limits: limits, work: work), loaded)
    }

    /// `image` encoded on the encoding stage.
    private func encoded(_ image: Image, as encoding: OutputEncoding, limits: DecodingLimits, work: SharedWork<EncodeResult>) async throws -> EncodedImage {
        try await work.run(on: self.encoding, span: "vignette.encode") { [metrics] cancellation, span throws -> EncodedImage in
            metrics.encodes.increment()
            var encoded = try ImagePipeline.encode(image, as: encoding, limits: limits, cancellation: cancellation, span: span)
            if let choice = encoded.choice { metrics.searched(choice) }
            // The decode's note travels in the image's header, through every processor.
            encoded.ignoredProfile = image.ignoredProfile
            return encoded
        }
    }

    /// `encoded` stored as `request`'s result: in memory, on disk (its writer does the I/O) and in
    /// the shared cache (in the background), as the request's options and the policy allow.
    private func storeResult(_ encoded: EncodedImage, for request: ImageRequest, encoding: OutputEncoding, diskKey: String) {
        storeEncodedInMemory(encoded, for: request, encoding: encoding)
        if let dataCache = configuration.dataCache, writesResultsToDisk(request) { dataCache.storeData(encoded.data, for: diskKey) }
        if let sharedCache = configuration.sharedCache, !request.options.contains(.disableDiskCacheWrites) {
            sharedCache.store(DataCache.Entry(data: encoded.data), for: diskKey)
        }
    }

    /// Stored bytes of an encoded result, with their format and size from the header; nil for
    /// none, or for bytes that are not an image (a foreign or damaged entry is a miss).
    static func encodedImage(in data: Data?) -> EncodedImage? {
        guard let data, let info = try? ImageDecoder(limits: .unlimited).probe(data) else { return nil }
        return EncodedImage(data: data, format: info.format, width: info.width, height: info.height)
    }

    /// `image` encoded in the format `encoding` picks for it, within `encoding.maxBytes`
    /// (`ImageEncoder.encode(_:as:maxBytes:limits:)`).
    /// `span` receives the encode's attributes.
    static func encode(
        _ image: Image, as encoding: OutputEncoding, limits: DecodingLimits, cancellation: ImagingCancellation? = nil, span: (any Span)? = nil
    ) throws(ImagePipelineError) -> EncodedImage {
        let format = encoding.format(for: image)
        if let search = encoding.search {
            return try searched(image, by: search, fallback: format, limits: limits, cancellation: cancellation, span: span)
        }
        do throws(ImagingError) {
            let fitted = try ImageEncoder.encode(image, as: format, maxBytes: encoding.maxBytes, limits: limits)
            let encoded = EncodedImage(data: fitted.data, format: format.format, width: image.width, height: image.height)
            span?.setEncoded(encoded, quality: fitted.quality)
            return encoded
        } catch {
            throw .encodingFailed(error)
        }
    }

    /// `request`'s result when `data` is an animated GIF or WebP and `encoding` keeps animations
    /// (`OutputEncoding.animatedFormat`): every frame (up to the frame limit) thumbnailed on load
    /// (`Thumbnailer.animatedThumbnail`), or, for a request decoded whole (`thumbnail` nil: a trim
    /// or a crop first), decoded whole (`ImageDecoder.decodeAnimation`); then run through the
    /// processors (`Animation.processed(by:limits:)`, one at a time, so a failure names its
    /// processor; a window is placed once for all frames, `AnimationProcessing`, and a faces
    /// crop on the first frame's faces) and encoded with its delays and loop count, within
    /// `maxBytes`; nil for a still (one page, or a format without animation), which takes the still routes.
    func encodedAnimation(
        _ data: Data, request: ImageRequest, thumbnail: ThumbnailOptions?, as encoding: OutputEncoding, limits: DecodingLimits,
        cancellation: ImagingCancellation, span: (any Span)? = nil
    ) throws -> EncodedImage? {
        guard encoding.animatedFormat != nil else { return nil }
        let info: ImageInfo
        do { info = try ImageDecoder(limits: limits).probe(data) } catch { throw ImagePipelineError.decodingFailed(error) }
        let frames = thumbnail ?? request.wholeThumbnail
        guard let format = encoding.animatedFormat(for: info, thumbnail: frames), limits.keptFrames(info.pages) > 1 else { return nil }
        warnings(for: request).ignoredProfile(info.ignoredProfile)
        metrics.decodes.increment()
        var animation: Animation
        do {
            if let thumbnail {
                animation = try Thumbnailer(options: thumbnail, limits: limits).animatedThumbnail(data, cancellation: cancellation).animation
            } else {
                animation = try ImageDecoder(limits: limits).decodeAnimation(data, cancellation: cancellation)
            }
        } catch where error.kind == .cancelled {
            graph.withLock { $0.decodesStopped += 1 }
            metrics.decodesStopped.increment()
            throw CancellationError()
        } catch {
            throw ImagePipelineError.decodingFailed(error)
        }
        for processor in request.processors {
            if cancellation.isCancelled { throw CancellationError() }
            do {
                let placed = try keepingFaces(processor, input: animation.frames[0])
                animation = try animation.processed(by: [placed], limits: limits)
            } catch {
                throw ImagePipelineError.processingFailed(processor: processor.identifier, error)
            }
        }
        metrics.encodes.increment()
        do throws(ImagingError) {
            let fitted = try ImageEncoder.encode(animation, as: format, maxBytes: encoding.maxBytes, limits: limits, cancellation: cancellation)
            let encoded = EncodedImage(
                data: fitted.data, format: format.format, width: animation.width, height: animation.height, ignoredProfile: info.ignoredProfile)
            span?.setEncoded(encoded, quality: fitted.quality)
            return encoded
        } catch where error.kind == .cancelled {
            throw CancellationError()
        } catch {
            throw ImagePipelineError.encodingFailed(error)
        }
    }

    /// The thumbnail of `data` made and encoded in one pass (`Thumbnailer.encodedThumbnail`); stops
    /// when `cancellation` is cancelled. Bad encoding options are `encodingFailed`; everything else
    /// that goes wrong is the decode's (the saver is what pulls the pixels).
    func encodedThumbnail(
        _ data: Data, thumbnail: ThumbnailOptions, as encoding: OutputEncoding, limits: DecodingLimits, cancellation: ImagingCancellation,
        span: (any Span)? = nil, warnings: DecodeWarnings? = nil
    ) throws -> EncodedImage {
        metrics.decodes.increment()
        metrics.encodes.increment()
        let thumbnailer = Thumbnailer(options: thumbnail, limits: limits)
        do throws(ImagingError) {
            var chosen: EncodingFormat?
            let (bytes, made) = try thumbnailer.encodedThumbnail(data, cancellation: cancellation) { image in
                let format = encoding.format(for: image)
                chosen = format
                return format
            }
            // The encoder asked for the format before it wrote a byte.
            guard let chosen else { throw ImagingError(.operationFailed, "no output format was chosen") }
            let encoded = EncodedImage(
                data: bytes, format: chosen.format, width: made.image.width, height: made.image.height, ignoredProfile: made.source.ignoredProfile)
            warnings?.ignoredProfile(made.source.ignoredProfile)
            if let span {
                span.setDecoded(source: made.source, bytes: data.count, image: made.image, route: made.route)
                span.setEncoded(encoded, quality: chosen.lossyQuality)
            }
            return encoded
        } catch let error where error.kind == .cancelled {
            graph.withLock { $0.decodesStopped += 1 }
            metrics.decodesStopped.increment()
            throw CancellationError()
        } catch let error where error.kind == .invalidArgument {
            throw ImagePipelineError.encodingFailed(error)
        } catch {
            throw ImagePipelineError.decodingFailed(error)
        }
    }

    func storeEncodedInMemory(_ image: EncodedImage, for request: ImageRequest, encoding: OutputEncoding) {
        guard let cache = configuration.encodedImageCache, !request.options.contains(.disableMemoryCacheWrites) else { return }
        cache[request, encoding] = image
    }
}
