import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 server on 127.0.0.1 (a port the kernel picks) for the tests: routes set per path,
/// every request recorded, Range/If-Range and If-None-Match honoured, bodies cut off, dribbled or
/// stalled on demand. Nothing but loopback is ever bound or contacted.
public final class LoopbackHTTPServer: Sendable {
    struct State {
        var routes: [String: Route] = [:]
        var requests: [RecordedRequest] = []
        var served: [String: Int] = [:]
    }

    let state = NIOLockedValueBox(State())
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel
    /// The port the server listens on.
    public let port: Int

    private init(group: MultiThreadedEventLoopGroup, channel: any Channel, port: Int) {
        self.group = group
        self.channel = channel
        self.port = port
    }

    /// Starts a server on 127.0.0.1 with one event-loop thread.
    public static func start() async throws -> LoopbackHTTPServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = NIOLockedValueBox<LoopbackHTTPServer?>(nil)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                    guard let server = box.withLockedValue({ $0 }) else { throw ChannelError.ioOnClosedChannel }
                    try channel.pipeline.syncOperations.addHandler(RequestHandler(server: server))
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            try? await group.shutdownGracefully()
            throw ChannelError.ioOnClosedChannel
        }
        let server = LoopbackHTTPServer(group: group, channel: channel, port: port)
        box.withLockedValue { $0 = server }
        return server
    }

    /// `http://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Answers requests for `path` (the path and query as sent) with `route`.
    public func setRoute(_ path: String, _ route: Route) {
        state.withLockedValue { $0.routes[path] = route }
    }

    /// Every request so far for `path`, in arrival order.
    public func requests(for path: String) -> [RecordedRequest] {
        state.withLockedValue { $0.requests.filter { $0.path == path } }
    }

    /// Every request so far.
    public var allRequests: [RecordedRequest] { state.withLockedValue { $0.requests } }

    /// Closes the listening socket and every open connection; later connections are refused.
    public func stop() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    /// Records `head` and returns its route and how many responses that path had before.
    func route(for head: HTTPRequestHead, body: [UInt8]) -> (Route?, Int) {
        state.withLockedValue { state in
            state.requests.append(RecordedRequest(
                method: head.method.rawValue, path: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: body))
            let index = state.served[head.uri, default: 0]
            state.served[head.uri] = index + 1
            return (state.routes[head.uri], index)
        }
    }
}
