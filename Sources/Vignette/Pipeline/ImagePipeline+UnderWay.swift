extension ImagePipeline {
    /// Whether `request`'s result encoded as `encoding` is in the memory cache now
    /// (`Configuration.encodedImageCache`), so that `encodedImage(for:as:)` answers it with no
    /// work; false when there is no such cache or the request does not read it.
    ///
    /// A server uses it to answer what is cheap at once, before any admission or queue.
    public func hasEncodedImageInMemory(for request: ImageRequest, as encoding: OutputEncoding) -> Bool {
        guard let cache = configuration.encodedImageCache, request.readsMemoryCache else { return false }
        return cache[request, encoding] != nil
    }

    /// Whether the work that finds or makes `request`'s result encoded as `encoding` is under way
    /// in the pipeline's task graph now: `encodedImage(for:as:)` called now joins it and adds no
    /// work of its own (equal work is done once).
    public func isEncodedImageUnderWay(for request: ImageRequest, as encoding: OutputEncoding) -> Bool {
        let key = GraphKey(EncodedImageKey(request, encoding), request)
        return graph.withLock { $0.encodes[key] != nil }
    }

    /// Whether the work of `info(for:options:)` for `request` and `options` is under way now: a
    /// call made now joins it.
    public func isInfoUnderWay(for request: ImageRequest, options: ImageInfoOptions) -> Bool {
        let key = GraphKey(infoKey(for: request, options: options), request)
        return graph.withLock { $0.infos[key] != nil }
    }
}
