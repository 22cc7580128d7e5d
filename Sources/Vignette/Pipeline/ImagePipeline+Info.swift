#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

extension ImagePipeline {
    /// imgproxy's `/info` answer for `request`'s source: a JSON object (compact text) with what
    /// `options` asks for, under imgproxy's field names.
    ///
    /// `request` is `options.recipe` made for the source (`ImageRecipe.request(for:…)`). The
    /// answer is a node of the task graph (equal concurrent asks share one), cached on disk and
    /// in the shared cache when the pipeline has them, under `infoKey(for:options:)`. Header facts
    /// come from the header alone: for a local file nothing but its header is read
    /// (`ImageDecoder.headerFacts(fileAt:)`) unless hashsums are asked for; other sources are
    /// loaded through the pipeline's loader (its byte budget, its coalescing). Pixel facts come
    /// from the request's image (the image node the `/placeholder` route shares), within its
    /// decoding budget.
    public func info(for request: ImageRequest, options: ImageInfoOptions) async throws(ImagePipelineError) -> String {
        do {
            try checkValid()
            try check(request)
            return try await subscribe(to: { self.infoWork(for: request, options: options) }, priority: request.priority, task: nil)
        } catch {
            let failure: ImagePipelineError = Task.isCancelled && !(error is ImagePipelineError) ? .cancelled : .wrapping(error)
            metrics.failed(failure)
            throw failure
        }
    }

    /// The key an `/info` answer is cached under: the processed image's key and the options'.
    /// Equal keys mean equal answers while the source is unchanged (an ETag may be made of it).
    public func infoKey(for request: ImageRequest, options: ImageInfoOptions) -> String {
        DiskKeys.processed(request) + "|" + options.identifier
    }

    func infoWork(for request: ImageRequest, options: ImageInfoOptions) -> SharedWork<String> {
        let key = infoKey(for: request, options: options)
        return node(in: \.infos, key: GraphKey(key, request), priority: request.priority, trace: nil, kind: "info") { [self] work in
            let requestOptions = request.options
            let readsCache = !requestOptions.contains(.disableDiskCacheReads) && !requestOptions.contains(.reloadIgnoringCachedData)
            let writesCache = !requestOptions.contains(.disableDiskCacheWrites)
            if readsCache, let dataCache = configuration.dataCache {
                let found = try await work.run(on: disk) { dataCache.data(for: key) }
                if let found { return String(decoding: found, as: UTF8.self) }
            }
            if readsCache, let sharedCache = configuration.sharedCache {
                let found = try await work.run(on: shared) { sharedCache.entry(for: key)?.data }
                if let found { return String(decoding: found, as: UTF8.self) }
            }
            let limits = request.limits(within: configuration.decodingLimits)
            let decoder = ImageDecoder(limits: limits)
            var data: Data?
            let facts: HeaderFacts
            let size: Int
            if case .file(let path) = request.source, !options.needsBytes {
                (facts, size) = try await work.run(on: decoding) {
                    let facts = try decoder.headerFacts(fileAt: path)
                    return (facts, try FileStatus(path: path).size)
                }
            } else {
                let loaded = try await work.value(of: loadWork(for: request, trace: nil))
                data = loaded
                facts = try await work.run(on: decoding) { try decoder.headerFacts(loaded) }
                size = loaded.count
            }
            var pixelFacts: [(String, MetadataValue)] = []
            if options.needsPixels {
                let image: Image
                if let cached = cachedImage(for: request), !cached.isPreview {
                    image = cached.image
                } else {
                    image = try await work.value(
                        of: imageWork(for: request, processorCount: request.processors.count, loaded: data, trace: nil)).image
                }
                pixelFacts = try await work.run(on: processing) { try InfoReport.pixelFacts(of: image, options: options) }
            }
            var hashsums: [(String, MetadataValue)] = []
            if let data, !options.hashsums.isEmpty {
                hashsums = try await work.run(on: processing) {
                    data.withUnsafeBytes { raw in options.hashsums.compactMap { kind in Digests.hex(of: raw, kind: kind).map { (kind, .string($0)) } } }
                }
            }
            var faces: [Face] = []
            if options.needsFaces {
                guard configuration.faceDetector != nil else {
                    throw ImagingError(.invalidArgument, "detect_objects and faces crops need a face model, and none is configured")
                }
                faces = try await work.value(of: facesWork(for: request))
            }
            let text = InfoReport.json(
                facts: facts, size: size, options: options, pixelFacts: pixelFacts, hashsums: hashsums, faces: faces
            ).jsonText
            if writesCache {
                configuration.dataCache?.storeData(Data(text.utf8), for: key)
                configuration.sharedCache?.store(DataCache.Entry(data: Data(text.utf8)), for: key)
            }
            return text
        }
    }
}

/// The JSON of an `/info` answer, in imgproxy's field names and order.
enum InfoReport {
    static func json(
        facts: HeaderFacts, size: Int, options: ImageInfoOptions, pixelFacts: [(String, MetadataValue)], hashsums: [(String, MetadataValue)],
        faces: [Face] = []
    ) -> MetadataValue {
        var fields: [(String, MetadataValue)] = []
        let info = facts.info
        if options.format { fields.append(("format", .string(info.format.rawValue))) }
        if options.dimensions {
            fields.append(("width", .int(info.width)))
            fields.append(("height", .int(info.height)))
        }
        if options.size { fields.append(("size", .int(size))) }
        if options.exif { fields.append(("exif", facts.exif.map(EXIFReader.read) ?? .object([]))) }
        if options.iptc {
            let (iptc, photoshop) = facts.iptc.map(IPTCReader.read) ?? (nil, nil)
            fields.append(("iptc", iptc ?? .object([])))
            if let photoshop { fields.append(("photoshop", photoshop)) }
        }
        if options.xmp { fields.append(("xmp", facts.xmp.map(XMPReader.read) ?? .object([]))) }
        if options.videoMeta, let video = info.video {
            fields.append(("video_meta", .record(video.tags.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        if options.colourSpace { fields.append(("colorspace", .string(facts.colourSpace))) }
        if options.bands { fields.append(("bands", .int(info.bands))) }
        if options.sampleFormat { fields.append(("sample_format", .string(facts.sampleFormat))) }
        if options.pagesNumber { fields.append(("pages_number", .int(info.pages))) }
        if options.alpha { fields.append(("alpha", .bool(info.hasAlpha))) }
        if let crop = options.crop { fields.append(("crop", relativeCrop(crop, of: info.uprightSize, faces: faces))) }
        if options.detectObjects {
            fields.append(("objects", .array(faces.map { face in
                .record([
                    ("class_id", .int(0)), ("class_name", .string("face")), ("confidence", .double(face.score)),
                    ("left", .double(face.x)), ("top", .double(face.y)), ("width", .double(face.width)), ("height", .double(face.height)),
                ])
            })))
        }
        fields += pixelFacts
        if !hashsums.isEmpty { fields.append(("hashsums", .record(hashsums))) }
        return .record(fields)
    }

    /// The facts made from the recipe's image (upright, reduced): palette, average,
    /// dominant colours, BlurHash, ThumbHash.
    static func pixelFacts(of image: Image, options: ImageInfoOptions) throws(ImagingError) -> [(String, MetadataValue)] {
        var fields: [(String, MetadataValue)] = []
        let pixels = try image.pixels()
        if options.palette > 0 {
            let colours = ColourStatistics.palette(pixels, count: options.palette)
            fields.append(("palette", .array(colours.map { $0.colour.value() })))
        }
        if options.average {
            fields.append(("average", ColourStatistics.average(pixels, ignoringTransparent: options.averageIgnoresTransparent).value()))
        }
        if options.dominantColours {
            let found = ColourStatistics.dominant(pixels, buildMissing: options.buildMissingColours)
            fields.append(("dominant_colors", .record(found.map { ($0.name, $0.colour?.value(alpha: false) ?? .null) })))
        }
        if options.blurHashX > 0 {
            fields.append(("blurhash", .string(try image.blurHash(componentsX: options.blurHashX, componentsY: options.blurHashY))))
        }
        if options.thumbHash { fields.append(("thumbhash", .string(try image.placeholder(.thumbhash)))) }
        return fields
    }

    /// Where `crop` falls on an upright image of `size`, as fractions of its sides (imgproxy's
    /// crop: pixels from 1, a fraction below 1, the whole side at 0; placed by its gravity and
    /// offsets or focus point; the smart gravity is placed at the centre here, the faces gravity on
    /// `faces` as the crop itself is, or at the centre when there are none).
    static func relativeCrop(_ crop: ImageRecipe.Crop, of size: PixelSize, faces: [Face] = []) -> MetadataValue {
        func side(_ value: Double, _ whole: Int) -> Int {
            let pixels = value >= 1 ? Int(value.rounded()) : value > 0 ? Int((Double(whole) * value).rounded()) : whole
            return min(whole, max(1, pixels))
        }
        let (width, height) = (side(crop.width, size.width), side(crop.height, size.height))
        let anchor = (crop.gravity ?? .centre).position ?? (0.5, 0.5)
        var position = crop.position
        if crop.gravity == .faces {
            position = FacePlacement.focus(
                of: faces, windowWidth: Double(width) / Double(max(1, size.width)), windowHeight: Double(height) / Double(max(1, size.height)))
        }
        let x = Image.cropStart(outer: size.width, inner: width, anchor: anchor.x, offset: position?.x ?? 0, focus: position?.isFocusPoint ?? false)
        let y = Image.cropStart(outer: size.height, inner: height, anchor: anchor.y, offset: position?.y ?? 0, focus: position?.isFocusPoint ?? false)
        let (w, h) = (Double(max(1, size.width)), Double(max(1, size.height)))
        return .record([
            ("left", .double(Double(x) / w)), ("top", .double(Double(y) / h)),
            ("width", .double(Double(width) / w)), ("height", .double(Double(height) / h)),
        ])
    }
}
