import NIOCore
import VignetteCodecs
import VignetteServer
import VignetteSupport

/// A channel handler of the server's HTTP/1 connections that tells the requests on it when the
/// client closes its side (`ChannelEvent.inputClosed`: Hummingbird allows half-closure, so a
/// FIN does not close the channel) or the connection ends. It watches the events as they pass and
/// consumes nothing, so the connection stays open for the client's next request.
///
/// Requests find their connection's `ClientDisconnect` with `disconnect(of:)`, from the channel
/// Hummingbird gives the request context.
final class ClientDisconnectHandler: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    let disconnect = ClientDisconnect()

    /// The watched connections: a request context is made off the event loop, where the
    /// pipeline's handlers cannot be looked up synchronously.
    private static let connections = Locked([ObjectIdentifier: ClientDisconnect]())

    /// The `ClientDisconnect` of `channel`, when its pipeline has this handler.
    static func disconnect(of channel: any Channel) -> ClientDisconnect? {
        connections.withLock { $0[ObjectIdentifier(channel)] }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let key = ObjectIdentifier(context.channel)
        Self.connections.withLock { $0[key] = disconnect }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        let key = ObjectIdentifier(context.channel)
        Self.connections.withLock { _ = $0.removeValue(forKey: key) }
        disconnect.signal()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event as? ChannelEvent == .inputClosed { disconnect.signal() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        disconnect.signal()
        context.fireChannelInactive()
    }
}
