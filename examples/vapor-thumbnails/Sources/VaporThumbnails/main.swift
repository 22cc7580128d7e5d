import Vapor
import Vignette
import VignetteServer
import VignetteVapor

try ImagingRuntime.start()
let app = try await Application.make(.detect())
// Files under IMAGES (default: the current folder); a path that leaves it is 403.
try app.vignette.configure(root: Environment.get("IMAGES") ?? ".")
// GET /thumbs/cat.jpg?w=300&h=200: a 300×200 crop, as AVIF or WebP when the browser takes them.
app.get("thumbs", ":name") { req async -> Response in
    let width = req.query[Int.self, at: "w"] ?? 256, height = req.query[Int.self, at: "h"] ?? width
    return await req.vignette.thumbnail(
        path: req.parameters.get("name") ?? "", recipe: ImageRecipe(width: width, height: height, resizingType: .fill))
}
// imgproxy URLs under /img, as `vignette serve` answers them: /img/insecure/rs:fit:300:200/plain/local:///cat.jpg
try app.vignette.mount(at: "img", configuration: ServerConfiguration(localRoot: Environment.get("IMAGES") ?? "."))
try await app.execute()
try await app.asyncShutdown()
