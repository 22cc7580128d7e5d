import Foundation
import Hummingbird
import Vignette
import VignetteHummingbird
import VignetteServer

try ImagingRuntime.start()
// Files under IMAGES (default: the current folder); a path that leaves it is 403.
let responder = try ImageResponder(
    pipeline: ImagePipeline(configuration: .init()), root: ProcessInfo.processInfo.environment["IMAGES"] ?? ".")
let router = Router()
// GET /thumbs/cat.jpg?w=300&h=200: a 300×200 crop, as AVIF or WebP when the browser takes them.
router.get("thumbs/:name") { request, context in
    let width = request.uri.queryParameters.get("w", as: Int.self) ?? 256
    let height = request.uri.queryParameters.get("h", as: Int.self) ?? width
    return await request.vignette.thumbnail(
        path: context.parameters.get("name") ?? "", recipe: ImageRecipe(width: width, height: height, resizingType: .fill),
        responder: responder, logger: context.logger)
}
try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080))).runService()
