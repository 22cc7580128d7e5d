#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

extension ImagePipeline {
    /// The faces in `request`'s source (its picture: page, frame), found by
    /// `configuration.faceDetector` on a small upright decode (`FaceDetector.faces(inSource:limits:)`,
    /// within the request's decoding budget). Found once per source: a node of the task graph (equal
    /// concurrent asks share one), kept in memory and, when the pipeline has one, in the disk cache
    /// under `facesKey(for:)`; every crop of the source reuses them. Empty when the pipeline has no
    /// detector.
    public func faces(for request: ImageRequest) async throws(ImagePipelineError) -> [Face] {
        guard configuration.faceDetector != nil else { return [] }
        if let known = foundFaces.value(forKey: facesKey(for: request)) { return known }
        do {
            try checkValid()
            try check(request)
            return try await subscribe(to: { self.facesWork(for: request) }, priority: request.priority, task: nil)
        } catch {
            let failure: ImagePipelineError = Task.isCancelled && !(error is ImagePipelineError) ? .cancelled : .wrapping(error)
            metrics.failed(failure)
            throw failure
        }
    }

    /// How a crop of `request` that keeps faces (`ImageRequest.keepsFaces`) is placed, as the
    /// server's `Vignette-Crop` header and the command's JSON report say it: `faces; n=N` on the
    /// source's faces (`faces(for:)`, cached), or `attention` where none was found or there is no
    /// detector; nil for a request that keeps no faces.
    public func facePlacement(for request: ImageRequest) async -> String? {
        guard request.keepsFaces else { return nil }
        let count = configuration.faceDetector == nil ? 0 : ((try? await faces(for: request))?.count ?? 0)
        return count == 0 ? "attention" : "faces; n=\(count)"
    }

    /// The key a source's faces are cached under: the source's own key and its picture.
    public func facesKey(for request: ImageRequest) -> String {
        let picture = Self.facesPicture(of: request)
        return "faces|" + DiskKeys.original(request) + "|" + String(picture.page) + "," + (picture.videoSecond.map { String($0) } ?? "-")
    }

    /// The picture whose faces a request's crop keeps: the thumbnail's page and frame, else the request's.
    static func facesPicture(of request: ImageRequest) -> SourcePicture {
        guard let thumbnail = request.thumbnail else { return request.picture }
        return SourcePicture(page: thumbnail.page, videoSecond: thumbnail.videoSecond)
    }

    func facesWork(for request: ImageRequest) -> SharedWork<[Face]> {
        let key = facesKey(for: request)
        return node(in: \.faces, key: GraphKey(key, request), priority: request.priority, trace: nil, kind: "faces") { [self] work in
            if let known = foundFaces.value(forKey: key) { return known }
            guard let detector = configuration.faceDetector else { return [] }
            let options = request.options
            let readsCache = !options.contains(.disableDiskCacheReads) && !options.contains(.reloadIgnoringCachedData)
            if readsCache, let dataCache = configuration.dataCache,
                let found = try await work.run(on: disk, { dataCache.data(for: key) }),
                let faces = try? JSONDecoder().decode([Face].self, from: found)
            {
                _ = foundFaces.set(faces, forKey: key)
                return faces
            }
            let data = try await work.value(of: loadWork(for: request, trace: nil))
            let limits = request.limits(within: configuration.decodingLimits)
            let picture = Self.facesPicture(of: request)
            let faces = try await work.run(on: decoding) { [metrics] in
                metrics.faceDetections.increment()
                return try detector.faces(inSource: data, picture: picture, limits: limits)
            }
            _ = foundFaces.set(faces, forKey: key)
            if !options.contains(.disableDiskCacheWrites), let encoded = try? JSONEncoder().encode(faces) {
                configuration.dataCache?.storeData(encoded, for: key)
            }
            return faces
        }
    }
}

extension ImagePipeline {
    /// `thumbnail` with a `faces` crop resolved for `request`'s source (`data`): placed on the
    /// source's faces (`faces(for:)`, found once and cached) for the window it cuts, or `attention`
    /// where there are none or no detector. Other thumbnails come back as they are, unread.
    func keepingFaces<Value>(_ thumbnail: ThumbnailOptions, request: ImageRequest, data: Data, work: SharedWork<Value>) async throws -> ThumbnailOptions {
        guard thumbnail.crop == .faces else { return thumbnail }
        guard configuration.faceDetector != nil else {
            var attention = thumbnail
            attention.crop = thumbnail.crop.withoutFaces
            return attention
        }
        let faces = try await work.value(of: facesWork(for: request))
        let limits = request.limits(within: configuration.decodingLimits)
        let info: ImageInfo
        do { info = try ImageDecoder(limits: limits).probe(data) } catch { throw ImagePipelineError.decodingFailed(error) }
        let source = thumbnail.autoOrient ? info.uprightSize : PixelSize(width: info.width, height: info.height)
        return thumbnail.keepingFaces(faces, uprightSource: source)
    }

    /// `processor` with a `faces` anchor resolved on its input, `image`: a crop of the source
    /// (`ImageProcessors.Region`) or a thumbnail after one (`ImageProcessors.Thumbnail`) is placed on
    /// the faces the detector finds in `image` itself, whose frame the earlier steps changed.
    /// Runs on a processing thread.
    func keepingFaces(_ processor: any ImageProcessing, input image: Image) throws -> any ImageProcessing {
        let size = PixelSize(width: image.width, height: image.height)
        if var region = processor as? ImageProcessors.Region, region.anchor == .faces {
            region.place(on: try faces(in: image), of: size)
            return region
        }
        if let thumbnail = processor as? ImageProcessors.Thumbnail, thumbnail.options.crop == .faces {
            return ImageProcessors.Thumbnail(options: thumbnail.options.keepingFaces(try faces(in: image), uprightSource: size))
        }
        return processor
    }

    private func faces(in image: Image) throws -> [Face] {
        guard let detector = configuration.faceDetector else { return [] }
        metrics.faceDetections.increment()
        return try detector.faces(in: image)
    }
}

extension ImageProcessors.Region {
    /// Centred on `FacePlacement`'s focus point for this region's window on an image of `size`, or
    /// `attention` when `faces` is empty.
    mutating func place(on faces: [Face], of size: PixelSize) {
        func fraction(_ side: Double, of length: Int) -> Double {
            side == 0 ? 1 : side >= 1 ? min(1, side / Double(max(1, length))) : side
        }
        let focus = FacePlacement.focus(
            of: faces, windowWidth: fraction(width, of: size.width), windowHeight: fraction(height, of: size.height))
        anchor = focus == nil ? .attention : .centre
        position = focus
    }
}

extension ImageRequest {
    /// Whether a crop of this request keeps faces: its thumbnail's or a crop step's anchor is
    /// `Gravity.faces`.
    public var keepsFaces: Bool {
        thumbnail?.crop == .faces
            || processors.contains { ($0 as? ImageProcessors.Region)?.anchor == .faces || ($0 as? ImageProcessors.Thumbnail)?.options.crop == .faces }
    }
}
