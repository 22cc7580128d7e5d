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
    /// spans go under `trace`.
    func encodeWork(for request: ImageRequest, encoding: OutputEncoding, trace: PipelineTrace?) -> SharedWork<EncodeResult> {
        let key = GraphKey(EncodedImageKey(request, encoding), request)
        return node(in: \.encodes, key: key, priority: request.priority, trace: trace, kind: "encode") { [self] work in
            let options = request.options
            let diskKey = DiskKeys.encoded(request, encoding)
            let dataCache = configuration.dataCache
            let readsDisk = !options.contains(.disableDiskCacheReads) && !options.contains(.reloadIgnoringCachedData)
            let writesDisk = !options.contains(.disableDiskCacheWrites) && configuration.dataCachePolicy.storesEncodedImage(hasProcessing: true)
            if let dataCache, readsDisk {
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
            if let sharedCache = configuration.sharedCache, readsDisk {
                // The lookup may wait for the shared cache's timeout: on its own threads.
                let found = try await work.run(on: shared, span: "vignette.cache.shared") { span in
                    let found = ImagePipeline.encodedImage(in: sharedCache.entry(for: diskKey)?.data)
                    span?.setSharedLookup(hit: found != nil, content: "result", layer: sharedCache.layerName)
                    return found
                }
                if let found {
                    storeEncodedInMemory(found, for: request, encoding: encoding)
                    if let dataCache, writesDisk { dataCache.storeData(found.data, for: diskKey) }
                    return EncodeResult(image: found, cacheType: .shared)
                }
            }
            let limits = request.limits(within: configuration.decodingLimits)
            let onePass = request.processors.isEmpty && encoding.maxBytes == 0
            // An animation is told from a still by its bytes: those requests load them first.
            let mayKeepFrames = encoding.animatedFormat != nil && request.thumbnail?.frames == .all
            var encoded: EncodedImage
            // The source's bytes when they were loaded here (a gain map is taken from them).
            var loaded: Data?
            if encoding.passesSVGThrough {
                let data = try await work.value(of: loadWork(for: request, trace: work.trace))
                encoded = try await work.run(on: decoding, span: "vignette.sanitize_svg") { _ throws -> EncodedImage in
                    do throws(ImagingError) {
                        let (svg, size) = try SVGDocument.sanitized(data, limits: limits)
                        return EncodedImage(data: svg, format: .svg, width: size.width, height: size.height)
                    } catch {
                        throw ImagePipelineError.encodingFailed(error)
                    }
                }
            } else if !mayKeepFrames, let cached = cachedImage(for: request), !cached.isPreview {
                encoded = try await work.run(on: self.encoding, span: "vignette.encode") { [metrics] span throws -> EncodedImage in
                    metrics.encodes.increment()
                    return try ImagePipeline.encode(cached.image, as: encoding, limits: limits, span: span)
                }
            } else {
                var made: EncodedImage?
                if let thumbnail = request.thumbnail, onePass || mayKeepFrames {
                    let data = try await work.value(of: loadWork(for: request, trace: work.trace))
                    loaded = data
                    if mayKeepFrames, Animation.mightBeAnimated(prefix: data.prefix(21)) {
                        made = try await work.run(on: decoding, span: "vignette.decode_encode") { [self] cancellation, span in
                            try encodedAnimation(data, request: request, as: encoding, limits: limits, cancellation: cancellation, span: span)
                        }
                    }
                    if made == nil, onePass {
                        // A thumbnail and nothing else: decoded, resized and encoded in one libvips
                        // pass (the thumbnail is never held in memory in between), on a decoding thread.
                        made = try await work.run(on: decoding, span: "vignette.decode_encode") { [self] cancellation, span in
                            try encodedThumbnail(data, thumbnail: thumbnail, as: encoding, limits: limits, cancellation: cancellation, span: span)
                        }
                    }
                }
                if let made {
                    encoded = made
                } else {
                    // A JPEG may keep the source's gain map, read from its bytes: loaded once, here.
                    if loaded == nil, encoding.keepsGainMap { loaded = try await work.value(of: loadWork(for: request, trace: work.trace)) }
                    // The image node (decode, then each processor), given the bytes loaded here.
                    let container = try await work.value(
                        of: imageWork(for: request, processorCount: request.processors.count, loaded: loaded, trace: work.trace))
                    encoded = try await work.run(on: self.encoding, span: "vignette.encode") { [metrics] span throws -> EncodedImage in
                        metrics.encodes.increment()
                        return try ImagePipeline.encode(container.image, as: encoding, limits: limits, span: span)
                    }
                }
            }
            if encoding.keepsGainMap, encoded.format == .jpeg {
                let source = if let loaded { loaded } else { try await work.value(of: loadWork(for: request, trace: work.trace)) }
                let primary = encoded
                encoded = try await work.run(on: self.encoding, span: "vignette.gain_map") { [self] _ in
                    keepingGainMap(primary, source: source, request: request, limits: limits)
                }
            }
            storeEncodedInMemory(encoded, for: request, encoding: encoding)
            if let dataCache, writesDisk { dataCache.storeData(encoded.data, for: diskKey) }
            if let sharedCache = configuration.sharedCache, !options.contains(.disableDiskCacheWrites) {
                sharedCache.store(DataCache.Entry(data: encoded.data), for: diskKey)
            }
            return EncodeResult(image: encoded, cacheType: nil)
        }
    }

    /// Stored bytes of an encoded result, with their format and size from the header; nil for
    /// none, or for bytes that are not an image (a foreign or damaged entry is a miss).
    static func encodedImage(in data: Data?) -> EncodedImage? {
        guard let data, let info = try? ImageDecoder(limits: .unlimited).probe(data) else { return nil }
        return EncodedImage(data: data, format: info.format, width: info.width, height: info.height)
    }

    /// `image` encoded in the format `encoding` picks for it, within `encoding.maxBytes` (`fitted`).
    /// `span` receives the encode's attributes.
    static func encode(
        _ image: Image, as encoding: OutputEncoding, limits: DecodingLimits, span: (any Span)? = nil
    ) throws(ImagePipelineError) -> EncodedImage {
        let format = encoding.format(for: image)
        do throws(ImagingError) {
            let (data, chosenQuality) = try fitted(format, in: encoding.maxBytes) { format throws(ImagingError) in
                try ImageEncoder.encode(image, as: format, limits: limits)
            }
            let encoded = EncodedImage(data: data, format: format.format, width: image.width, height: image.height)
            span?.setEncoded(encoded, quality: chosenQuality)
            return encoded
        } catch {
            throw .encodingFailed(error)
        }
    }

    /// What `encode` makes as `format`, and the quality it was made at (nil for a lossless
    /// format); over `maxBytes` (when not 0), at the highest quality (at most the format's own)
    /// whose result fits, found by bisection, or the smallest result when none fits.
    static func fitted(
        _ format: EncodingFormat, in maxBytes: Int, _ encode: (EncodingFormat) throws(ImagingError) -> Data
    ) throws(ImagingError) -> (data: Data, quality: Int?) {
        var data = try encode(format)
        guard maxBytes > 0, data.count > maxBytes, let quality = format.lossyQuality, quality > 1 else {
            return (data, format.lossyQuality)
        }
        // The best fit so far, the smallest result so far, and the quality range still to try.
        var (low, high) = (1, quality - 1)
        var chosen = quality
        var smallest = (data: data, quality: quality)
        while low <= high {
            let middle = (low + high + 1) / 2
            let attempt = try encode(format.with(quality: middle))
            if attempt.count < smallest.data.count { smallest = (attempt, middle) }
            if attempt.count <= maxBytes {
                (data, chosen) = (attempt, middle)
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return data.count > maxBytes ? smallest : (data, chosen)
    }

    /// `request`'s result when `data` is an animated GIF or WebP and `encoding` keeps animations
    /// (`OutputEncoding.animatedFormat`): every frame thumbnailed (`Thumbnailer.animatedThumbnail`),
    /// run through the processors (`Animation.processed(by:limits:)`, one at a time, so a failure
    /// names its processor) and encoded with its delays and loop count, within `maxBytes`; nil for
    /// a still (one page, or a format without animation), which takes the still routes.
    func encodedAnimation(
        _ data: Data, request: ImageRequest, as encoding: OutputEncoding, limits: DecodingLimits, cancellation: ImagingCancellation,
        span: (any Span)? = nil
    ) throws -> EncodedImage? {
        guard encoding.animatedFormat != nil, let thumbnail = request.thumbnail else { return nil }
        let info: ImageInfo
        do { info = try ImageDecoder(limits: limits).probe(data) } catch { throw ImagePipelineError.decodingFailed(error) }
        guard let format = encoding.animatedFormat(for: info, thumbnail: thumbnail) else { return nil }
        metrics.decodes.increment()
        var animation: Animation
        do {
            animation = try Thumbnailer(options: thumbnail, limits: limits).animatedThumbnail(data, cancellation: cancellation).animation
        } catch where error.kind == .cancelled {
            graph.withLock { $0.decodesStopped += 1 }
            metrics.decodesStopped.increment()
            throw CancellationError()
        } catch {
            throw ImagePipelineError.decodingFailed(error)
        }
        for processor in request.processors {
            do {
                animation = try animation.processed(by: [processor], limits: limits)
            } catch {
                throw ImagePipelineError.processingFailed(processor: processor.identifier, error)
            }
        }
        metrics.encodes.increment()
        do throws(ImagingError) {
            let frames = animation
            let (bytes, quality) = try ImagePipeline.fitted(format, in: encoding.maxBytes) { format throws(ImagingError) in
                try ImageEncoder.encode(frames, as: format, limits: limits, cancellation: cancellation)
            }
            let encoded = EncodedImage(data: bytes, format: format.format, width: animation.width, height: animation.height)
            span?.setEncoded(encoded, quality: quality)
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
        span: (any Span)? = nil
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
            let encoded = EncodedImage(data: bytes, format: chosen.format, width: made.image.width, height: made.image.height)
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
