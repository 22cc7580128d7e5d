#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ThumbnailServer {
    /// `/health`: 200 "ok" while the process answers.
    package var healthAnswer: ImageAnswer { ImageAnswer.text(200, "ok") }

    /// `/ready`: 200 "ready", or 503 "overloaded" while the admission would refuse a request now.
    package var readyAnswer: ImageAnswer {
        let ready = !admission.snapshot.refusesNow
        return ImageAnswer.text(ready ? 200 : 503, ready ? "ready" : "overloaded")
    }

    /// `/metrics`: the Prometheus text exposition, with the admission's gauges and the caches',
    /// libvips' and the process' (`MemoryGauges.record(pipeline:)`) brought up to date.
    package var metricsAnswer: ImageAnswer {
        metrics.record(admission.snapshot)
        metrics.memory.record(pipeline: pipeline)
        let body = Data(metrics.exposition())
        return ImageAnswer(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4"), ("Content-Length", String(body.count))], body: body)
    }
}
