import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// What answers the server's requests.
protocol APIHandler: Sendable {
  /// The response to `request`; a thrown error is answered with 500.
  func handle(_ request: APIRequest) async throws -> APIResponse
}

/// The playground's HTTP/1.1 connections on Hummingbird's server: each connection's
/// pipeline and the task that answers its requests in turn.
///
/// The pipeline is NIO's HTTP/1 server pipeline (the llhttp parser, the response encoder)
/// between the server's two handlers of its own: ``ConnectionGuard`` in front of the decoder
/// (sizes and deadlines of what arrives, lingering after the last answer) and
/// ``RequestFraming`` after it (what is accepted of a parsed head, the body's length). The
/// task reads each request whole, hands it to the handler and writes the response; a
/// refusal or a parse error is answered with `Connection: close`, after the requests before
/// it.
struct PlaygroundChannel: ServerChildChannel {
  typealias Value = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

  let handler: any APIHandler
  let limits: PlaygroundServer.HTTPLimits
  let admission: ConnectionAdmission

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
    channel.eventLoop.makeCompletedFuture {
      let pipeline = channel.pipeline.syncOperations
      try channel.syncOptions?.setOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      let guardHandler = ConnectionGuard(limits: limits, admission: admission)
      try pipeline.addHandler(guardHandler)
      // NIO's own bounds, beyond the guard's (which counts the whole head).
      var decoderLimits = NIOHTTPDecoderLimitConfiguration()
      decoderLimits.maxHeaderFieldSize = limits.headBytes
      decoderLimits.maxHeaderListSize = limits.headBytes
      decoderLimits.maxHeaderFieldCount = limits.headerFields
      try pipeline.configureHTTPServerPipeline(
        withPipeliningAssistance: false,  // the task below answers requests in turn
        withErrorHandling: false,  // the task below answers errors
        withOutboundHeaderValidation: true,
        withEncoderConfiguration: .init(),
        withDecoderLimitConfiguration: decoderLimits)
      try pipeline.addHandler(RequestFraming(limits: limits, connection: guardHandler))
      return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
    }
  }

  func handle(value: Value, logger: Logger) async {
    do {
      try await withTaskCancellationHandler {
        try await value.executeThenClose { inbound, outbound in
          var parts = inbound.makeAsyncIterator()
          do {
            while let request = try await Self.nextRequest(&parts) {
              let response: APIResponse
              do throws(RequestError) {
                let apiRequest = try APIRequest(
                  method: request.head.method.rawValue, target: request.head.uri, body: request.body)
                do {
                  response = try await handler.handle(apiRequest)
                } catch {
                  response = .error(RequestError(status: .internalServerError, message: "the request failed: \(error)"))
                }
              } catch {
                response = .error(error)
              }
              let closes =
                !request.head.isKeepAlive
                || response.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
              try await Self.write(response, to: outbound, closing: closes, headOnly: request.head.method == .HEAD)
              if closes { break }
            }
          } catch {
            try await Self.write(.error(Self.refusal(for: error)), to: outbound, closing: true, headOnly: false)
          }
          // The guard closes the connection: after lingering, once the client closed its
          // side, or at a deadline.
          try await value.channel.closeFuture.get()
        }
      } onCancel: {
        value.channel.close(promise: nil)
      }
    } catch {
      // The connection failed or was closed while writing: nothing more to do.
    }
  }

  /// A request read whole.
  private struct Request {
    var head: HTTPRequestHead
    var body: [UInt8]
  }

  /// The next request, or `nil` once the connection ends.
  private static func nextRequest(
    _ parts: inout NIOAsyncChannelInboundStream<HTTPServerRequestPart>.AsyncIterator
  ) async throws -> Request? {
    while let part = try await parts.next() {
      guard case .head(let head) = part else { continue }  // the rest of a refused request
      var body: [UInt8] = []
      while let part = try await parts.next() {
        switch part {
        case .body(let bytes): body += bytes.readableBytesView
        case .end: return Request(head: head, body: body)
        case .head: return nil
        }
      }
      return nil
    }
    return nil
  }

  /// Writes `response` whole, with its Content-Length and, when `closing`, `Connection: close`.
  private static func write(
    _ response: APIResponse, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>, closing: Bool,
    headOnly: Bool
  ) async throws {
    var headers = response.headers
    for name in ["Content-Length", "Connection", "Transfer-Encoding"] { headers.remove(name: name) }
    let code = response.status.code
    let bodiless = code < 200 || code == 204 || code == 304
    if !bodiless { headers.add(name: "Content-Length", value: String(response.body.count)) }
    if closing { headers.add(name: "Connection", value: "close") }
    var parts: [HTTPServerResponsePart] = [.head(HTTPResponseHead(version: .http1_1, status: response.status, headers: headers))]
    if !bodiless && !headOnly && !response.body.isEmpty {
      parts.append(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
    }
    parts.append(.end(nil))
    try await outbound.write(contentsOf: parts)
  }

  /// The answer to a request that could not be read.
  private static func refusal(for error: any Error) -> RequestError {
    switch error {
    case let error as RequestError:
      return error
    case HTTPParserError.headerOverflow:
      return RequestError(status: .requestHeaderFieldsTooLarge, message: "the request head is over the server's limits")
    case HTTPParserError.invalidMethod, HTTPParserError.invalidURL, HTTPParserError.invalidVersion,
      HTTPParserError.invalidConstant:
      return .bad("not an HTTP request: the first line must be METHOD /path HTTP/1.1, with CRLF line ends")
    case HTTPParserError.invalidContentLength, HTTPParserError.unexpectedContentLength:
      return .bad("Content-Length must be one whole number of bytes, given once, without Transfer-Encoding")
    case let error as HTTPParserError:
      return .bad("the request is not valid HTTP/1.1: \(error.debugDescription)")
    default:
      return .bad("the request could not be read: \(error)")
    }
  }
}
