import Hummingbird
import VignetteServer

/// The request context of the server's own application: Hummingbird's basic context, and the
/// connection's `ClientDisconnect` (from the `ClientDisconnectHandler` that `application()` puts on
/// every connection), so a processed request keeps its connection alive and still stops its work
/// when the client leaves.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let disconnect: ClientDisconnect?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        disconnect = ClientDisconnectHandler.disconnect(of: source.channel)
    }
}
