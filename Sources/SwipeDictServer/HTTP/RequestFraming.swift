import NIOCore
import NIOHTTP1

/// The handler after NIO's HTTP/1 decoder: what the server accepts of a parsed head, and how
/// long the body that follows it is (which ``ConnectionGuard`` then counts).
///
/// | status | when |
/// | --- | --- |
/// | 400 | an HTTP/1.1 request with no Host or several |
/// | 411 | a Transfer-Encoding (chunked bodies are not read: send a Content-Length) |
/// | 413 | a Content-Length over the body limit, answered at once (before any `100 Continue`) |
/// | 417 | an Expect other than `100-continue` (which gets `100 Continue` before the body) |
/// | 505 | an HTTP version other than 1.0 and 1.1 |
///
/// On the way out it adds `Connection: keep-alive` to an answer that keeps an HTTP/1.0
/// connection open, and tells the guard when each answer has been written whole.
final class RequestFraming: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  private let limits: PlaygroundServer.HTTPLimits
  private let connection: ConnectionGuard
  /// The versions of the requests handed on and not yet answered, in order.
  private var versions: [HTTPVersion] = []
  /// Whether the answer being written says `Connection: close`.
  private var closing = false

  init(limits: PlaygroundServer.HTTPLimits, connection: ConnectionGuard) {
    self.limits = limits
    self.connection = connection
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(let head) = unwrapInboundIn(data) else {
      context.fireChannelRead(data)
      return
    }
    let length: Int
    do throws(RequestError) {
      length = try accept(head)
    } catch {
      connection.stopReading()
      context.fireErrorCaught(error)
      return
    }
    versions.append(head.version)
    connection.requestReceived(bodyLength: length)
    if length > 0, connection.unanswered == 1, head.version == .http1_1,
      head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" })
    {
      // Only when no other answer is being written, which it could cut in two.
      context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
    }
    context.fireChannelRead(data)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // The decoder failed (its error is answered): it is given nothing more.
    if !(error is RequestError) { connection.stopReading() }
    context.fireErrorCaught(error)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch unwrapOutboundIn(data) {
    case .head(var head) where head.status.code >= 200:
      let version = versions.isEmpty ? .http1_1 : versions.removeFirst()
      closing = head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
      if version == .http1_0 && !closing { head.headers.replaceOrAdd(name: "Connection", value: "keep-alive") }
      context.write(wrapOutboundOut(.head(head)), promise: promise)
    case .end:
      let closing = closing
      let promise = promise ?? context.eventLoop.makePromise()
      promise.futureResult.assumeIsolated().whenSuccess { self.connection.responseWritten(closing: closing) }
      context.write(data, promise: promise)
    default:
      context.write(data, promise: promise)
    }
  }

  /// The length of the body of an acceptable head.
  private func accept(_ head: HTTPRequestHead) throws(RequestError) -> Int {
    guard head.version == .http1_1 || head.version == .http1_0 else {
      throw RequestError(
        status: .httpVersionNotSupported, message: "HTTP/\(head.version.major).\(head.version.minor) is not supported: use HTTP/1.1")
    }
    let hosts = head.headers[canonicalForm: "host"].count
    guard hosts <= 1 else { throw .bad("the request has several Host headers") }
    guard hosts == 1 || head.version != .http1_1 else { throw .bad("an HTTP/1.1 request must have a Host header") }
    guard !head.headers.contains(name: "transfer-encoding") else {
      throw RequestError(
        status: .lengthRequired, message: "Transfer-Encoding is not supported: send the body with a Content-Length")
    }
    // NIO has checked that the Content-Length is digits, and that several agree.
    let length = head.headers.first(name: "content-length").map { Int($0) ?? Int.max } ?? 0
    guard length <= limits.bodyBytes else {
      throw RequestError(status: .payloadTooLarge, message: "the body is over the limit of \(limits.bodyBytes) bytes")
    }
    guard head.headers[canonicalForm: "expect"].allSatisfy({ $0.lowercased() == "100-continue" }) else {
      throw RequestError(status: .expectationFailed, message: "only Expect: 100-continue is supported")
    }
    return length
  }
}

@available(*, unavailable)
extension RequestFraming: Sendable {}
