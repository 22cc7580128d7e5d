import NIOCore
import NIOHTTP1

/// Answers one connection's requests from the server's routes.
final class RequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let server: LoopbackHTTPServer
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(server: LoopbackHTTPServer) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body = []
        case .body(let part): body += part.readableBytesView
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, body: body, context: context)
        }
    }

    private func respond(to request: HTTPRequestHead, body requestBody: [UInt8], context: ChannelHandlerContext) {
        let (route, index) = server.route(for: request, body: requestBody)
        guard let route else { return send(.status(404), status: 404, body: Array("no route\n".utf8), context: context) }
        var headers: [(String, String)] = route.headers
        if let etag = route.etag { headers.append(("ETag", etag)) }
        if let lastModified = route.lastModified { headers.append(("Last-Modified", lastModified)) }
        if route.acceptsRanges { headers.append(("Accept-Ranges", "bytes")) }
        var answer = route
        answer.headers = headers
        guard route.status == 200 else { return send(answer, status: route.status, body: route.body, context: context) }

        if let etag = route.etag, request.headers.first(name: "If-None-Match") == etag {
            return send(answer, status: 304, body: [], context: context)
        }
        var status = 200
        var body = route.body
        if route.acceptsRanges, let start = Self.rangeStart(request.headers.first(name: "Range")), start < body.count {
            let ifRange = request.headers.first(name: "If-Range")
            if ifRange == nil || ifRange == route.etag || ifRange == route.lastModified {
                status = 206
                answer.headers.append(("Content-Range", "bytes \(start)-\(body.count - 1)/\(body.count)"))
                body = Array(body[start...])
            }
        }
        if index < route.cutOffResponses {
            return sendCutOff(answer, status: status, body: body, context: context)
        }
        send(answer, status: status, body: body, context: context)
    }

    /// N of `bytes=N-`.
    static func rangeStart(_ header: String?) -> Int? {
        guard let header, header.hasPrefix("bytes="), header.hasSuffix("-") else { return nil }
        return Int(header.dropFirst(6).dropLast())
    }

    private func writeHead(_ route: Route, status: Int, length: Int?, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(route.headers)
        headers.add(name: "Content-Type", value: route.contentType)
        if let length { headers.add(name: "Content-Length", value: "\(length)") } else {
            headers.add(name: "Transfer-Encoding", value: "chunked")
        }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
        context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
    }

    private func send(_ route: Route, status: Int, body: [UInt8], context: ChannelHandlerContext) {
        switch route.delivery {
        case .whole where status == 304:
            writeHead(route, status: status, length: nil, context: context)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .whole:
            writeHead(route, status: status, length: body.count, context: context)
            writeBody(body[...], context: context)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .chunkedWithoutLength:
            writeHead(route, status: status, length: nil, context: context)
            var offset = 0
            while offset < body.count {
                let end = min(body.count, offset + 16_384)
                writeBody(body[offset..<end], context: context)
                offset = end
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        case .dribble(let chunkSize, let interval):
            writeHead(route, status: status, length: body.count, context: context)
            dribble(body, from: 0, chunkSize: max(1, chunkSize), interval: interval, context: context)
        case .dribbleHeld(let chunkSize, let interval, let holdAt, let gate):
            writeHead(route, status: status, length: body.count, context: context)
            dribble(body, from: 0, chunkSize: max(1, chunkSize), interval: interval, hold: (holdAt, gate), context: context)
        case .stall:
            writeHead(route, status: status, length: body.count, context: context)
        }
    }

    private func dribble(
        _ body: [UInt8], from offset: Int, chunkSize: Int, interval: TimeAmount, hold: (at: Int, gate: Gate)? = nil,
        context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        let end = min(body.count, offset + chunkSize, hold.map { $0.at > offset ? $0.at : Int.max } ?? Int.max)
        writeBody(body[offset..<end], context: context)
        guard end < body.count else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        if let hold, end == hold.at {
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            hold.gate.whenOpen {
                loop.execute {
                    let (handler, context) = bound.value
                    handler.dribble(body, from: end, chunkSize: chunkSize, interval: interval, context: context)
                }
            }
            return
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: interval) {
            self.dribble(body, from: end, chunkSize: chunkSize, interval: interval, hold: hold, context: context)
        }
    }

    /// Sends the head for the whole body, then part of it, then closes the connection.
    private func sendCutOff(_ route: Route, status: Int, body: [UInt8], context: ChannelHandlerContext) {
        writeHead(route, status: status, length: body.count, context: context)
        let cut = Int(Double(body.count) * route.cutOffFraction)
        writeBody(body[..<cut], context: context)
        context.flush()
        context.close(promise: nil)
    }

    private func writeBody(_ bytes: ArraySlice<UInt8>, context: ChannelHandlerContext) {
        guard !bytes.isEmpty else { return }
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    }
}
