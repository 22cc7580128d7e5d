#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import VignetteSupport

/// Decodes previews for a decode node from the bytes received so far: at most one at a time, no
/// more often than `Configuration.progressiveDecodingInterval`, only while a subscriber wants
/// previews. Bytes that arrive meanwhile are kept and previewed when the rule allows, so a
/// download that pauses still shows what it has. Previews are made by `ProgressiveDecoder`
/// (libwebp's incremental decoder, libvips with fail-on none for progressive JPEG), turned
/// upright and fitted to the request's thumbnail box on a decoding thread.
final class PreviewDecoding: Sendable {
    private let stage: ThreadStage
    private let work: SharedWork<ImageContainer>
    private let thumbnail: ThumbnailOptions?
    private let decoder: ProgressiveDecoder
    private let interval: Duration
    private let state = Locked(State())

    private struct State {
        /// When the last preview was shown.
        var last: ContinuousClock.Instant?
        /// Whether a preview is being made.
        var busy = false
        /// Whether all the data is in.
        var complete = false
        /// Bytes offered while a preview was being made or too soon after the last one: offered
        /// again later, so the newest bytes are previewed even when no more arrive for a while.
        var waiting: Data?
        /// Whether a later offer of `waiting` is already scheduled.
        var retryScheduled = false
    }

    init(pipeline: ImagePipeline, work: SharedWork<ImageContainer>, thumbnail: ThumbnailOptions?) {
        stage = pipeline.decoding
        self.work = work
        self.thumbnail = thumbnail
        decoder = ProgressiveDecoder(
            limits: pipeline.configuration.decodingLimits, minimumPreviewSide: thumbnail.map { max($0.width, $0.height) })
        interval = pipeline.configuration.progressiveDecodingInterval
    }

    /// All the data is in: no preview starts any more.
    func dataComplete() {
        state.withLock { $0.complete = true }
    }

    /// More bytes arrived: decode a preview now, or keep the bytes for when the preview being made
    /// ends or the interval since the last one has passed.
    func offer(_ prefix: Data) {
        guard work.wantsPreviews, !decoder.isFinished else { return }
        enum Decision { case decode, wait(Duration), keep }
        let now = ContinuousClock.now
        let interval = interval
        let decision = state.withLock { state -> Decision in
            if state.complete { return .keep }
            if state.busy {
                state.waiting = prefix
                return .keep
            }
            if let last = state.last, now - last < interval {
                state.waiting = prefix
                if state.retryScheduled { return .keep }
                state.retryScheduled = true
                return .wait(interval - (now - last))
            }
            state.busy = true
            state.waiting = nil
            return .decode
        }
        switch decision {
        case .keep: return
        case .wait(let delay):
            Task { [self] in
                try? await Task.sleep(for: delay)
                offerWaiting(endingRetry: true)
            }
        case .decode: decode(prefix)
        }
    }

    /// Offers the bytes kept while a preview was being made or too soon after the last one.
    private func offerWaiting(endingRetry: Bool) {
        let waiting = state.withLock { state -> Data? in
            if endingRetry { state.retryScheduled = false }
            defer { state.waiting = nil }
            return state.waiting
        }
        if let waiting { offer(waiting) }
    }

    private func decode(_ prefix: Data) {
        Task { [self] in
            let decoder = decoder, thumbnail = thumbnail, state = state
            let preview = try? await work.run(on: stage) { () throws(ImagingError) -> ImageContainer? in
                // A preview still queued when the whole data is in would only delay the final image.
                guard !state.withLock({ $0.complete }), var image = decoder.preview(from: prefix) else { return nil }
                if image.orientation != 1, thumbnail?.autoOrient ?? true { image = try image.autoOriented() }
                if let thumbnail { image = try image.resized(toFit: thumbnail) }
                return ImageContainer(image: try image.materialized(), isPreview: true)
            }
            // The interval runs from the last preview shown, not from the last attempt: bytes that
            // completed no new scan do not hold back the next ones.
            let made = (preview ?? nil) != nil
            state.withLock { state in
                state.busy = false
                if made { state.last = ContinuousClock.now }
            }
            if let preview = preview ?? nil { work.publishPreview(preview) }
            offerWaiting(endingRetry: false)
        }
    }
}

/// Runs a processor node's processor over its input's previews, one at a time (a preview that
/// arrives while one is being processed is skipped), on a processing thread.
final class PreviewProcessing: Sendable {
    private let stage: ThreadStage
    private let work: SharedWork<ImageContainer>
    private let processor: any ImageProcessing
    private let busy = Locked(false)

    init(pipeline: ImagePipeline, work: SharedWork<ImageContainer>, processor: any ImageProcessing) {
        stage = pipeline.processing
        self.work = work
        self.processor = processor
    }

    func offer(_ input: ImageContainer) {
        guard work.wantsPreviews, busy.withLock({ busy in defer { busy = true }; return !busy }) else { return }
        Task { [self] in
            defer { busy.withLock { $0 = false } }
            let processor = processor
            let preview = try? await work.run(on: stage) {
                ImageContainer(image: try processor.process(input.image).materialized(), isPreview: true)
            }
            if let preview { work.publishPreview(preview) }
        }
    }
}
