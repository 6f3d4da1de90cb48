import NIOCore
import NIOHTTP1

/// The first handler of every connection, before NIO's HTTP/1 decoder: it bounds what a
/// client may send and how long it may take (``PlaygroundServer/HTTPLimits``), which NIO's
/// decoder does not.
///
/// It looks at each byte of a request head once, as it arrives, only to find where the head
/// ends (a line end, then an empty line) and to count it: NIO parses it. The bytes of the body
/// are counted against the length ``RequestFraming`` read from the head. Between requests it
/// drops blank lines (RFC 9112 §2.2), which start no deadline. Its deadlines, one event-loop
/// timer at a time:
///
/// | while | deadline | then |
/// | --- | --- | --- |
/// | waiting for a new connection's first request | head time | closed, no answer |
/// | waiting for a kept-alive connection's next request | keep-alive time | closed, no answer |
/// | a head arrives (from its first byte) | head time | 408 |
/// | a body arrives (from the end of the head) | body time | 408 |
/// | a response is written | write time | closed |
/// | lingering after the last answer | linger time | closed |
///
/// A refusal (a head past its size, a deadline, or a refusal of ``RequestFraming``) stops
/// the bytes from going on to the decoder and goes up the pipeline as a ``RequestError``,
/// which the connection's task answers in turn, after the answers to the requests before it.
/// After an answer with `Connection: close` the guard shuts the sending side down and reads
/// and drops what the client still sends, so that it reads the answer rather than a reset.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private enum Phase {
    /// Between requests; `blank` blank-line bytes dropped so far.
    case idle(blank: Int)
    /// Reading a head: its bytes so far, the length of its current line (CR not counted),
    /// and whether its request line has ended.
    case head(bytes: Int, line: Int, requestLineEnded: Bool)
    /// A head was handed to the decoder, which has not answered yet.
    case handedOn(bytes: Int)
    /// Reading a body: the bytes still to come.
    case body(remaining: Int)
    /// Refused or stopping: what arrives is dropped.
    case dropping
    /// The last answer is written and the sending side shut down: what arrives is dropped,
    /// at most `budget` more bytes.
    case lingering(budget: Int)
  }

  private let limits: PlaygroundServer.HTTPLimits
  private let admission: ConnectionAdmission
  private var admitted = false
  private var phase = Phase.idle(blank: 0)
  /// Requests handed on whose answer has not been written.
  private(set) var unanswered = 0
  /// Whether a request has been handed on (the first waits for the head time, the next
  /// ones for the keep-alive time).
  private var servedAny = false
  /// Close once every request handed on is answered (the server stops, or the client
  /// closed its sending side).
  private var closeWhenAnswered = false
  private var deadline: Scheduled<Void>?
  private var writeDeadline: Scheduled<Void>?
  private var pendingWrites = 0
  private var context: ChannelHandlerContext?

  init(limits: PlaygroundServer.HTTPLimits, admission: ConnectionAdmission) {
    self.limits = limits
    self.admission = admission
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    cancelDeadlines()
    self.context = nil
  }

  func channelActive(context: ChannelHandlerContext) {
    context.fireChannelActive()
    admitted = admission.admit()
    guard admitted else {
      refuse(
        RequestError(
          status: .serviceUnavailable,
          message: admission.isStopping
            ? "the server is stopping"
            : "the server has \(admission.capacity) connections open, its limit: try again later"))
      return
    }
    waitForRequest()
  }

  func channelInactive(context: ChannelHandlerContext) {
    cancelDeadlines()
    if admitted { admission.release() }
    admitted = false
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var buffer = unwrapInboundIn(data)
    while buffer.readableBytes > 0 {
      switch phase {
      case .idle(var blank):
        let skipped = buffer.readableBytesView.prefix { $0 == 0x0D || $0 == 0x0A }.count
        buffer.moveReaderIndex(forwardBy: skipped)
        blank += skipped
        guard blank <= limits.headBytes else {
          refuse(.bad("the request holds only blank lines"))
          return
        }
        phase = .idle(blank: blank)
        if buffer.readableBytes > 0 {
          phase = .head(bytes: 0, line: 0, requestLineEnded: false)
          setDeadline(limits.headTime) { guard_ in
            guard_.refuse(
              RequestError(
                status: .requestTimeout,
                message: "the request head did not arrive within \(describe(guard_.limits.headTime))"))
          }
        }
      case .head(var bytes, var line, var requestLineEnded):
        var end: Int?
        for (offset, byte) in buffer.readableBytesView.enumerated() {
          guard bytes < limits.headBytes else {
            refuse(
              requestLineEnded
                ? RequestError(
                  status: .requestHeaderFieldsTooLarge,
                  message: "the request head is over the limit of \(limits.headBytes) bytes")
                : RequestError(
                  status: .uriTooLong, message: "the request line is over the limit of \(limits.headBytes) bytes"))
            return
          }
          bytes += 1
          if byte == 0x0A {
            if line == 0 {
              end = offset + 1
              break
            }
            line = 0
            requestLineEnded = true
          } else if byte != 0x0D {
            line += 1
          }
        }
        guard let end else {
          phase = .head(bytes: bytes, line: line, requestLineEnded: requestLineEnded)
          context.fireChannelRead(wrapInboundOut(buffer))
          return
        }
        phase = .handedOn(bytes: bytes)
        context.fireChannelRead(wrapInboundOut(buffer.readSlice(length: end)!))
        if case .handedOn(let bytes) = phase {
          // The decoder did not take it for a whole head: go on reading it.
          phase = .head(bytes: bytes, line: 0, requestLineEnded: true)
        }
      case .handedOn:
        // Only while the decoder has the head (``requestReceived(bodyLength:)`` ends it).
        return
      case .body(let remaining):
        let count = min(remaining, buffer.readableBytes)
        phase = count == remaining ? .idle(blank: 0) : .body(remaining: remaining - count)
        if count == remaining { cancelDeadline() }
        context.fireChannelRead(wrapInboundOut(buffer.readSlice(length: count)!))
      case .dropping:
        return
      case .lingering(let budget):
        let left = budget - buffer.readableBytes
        phase = .lingering(budget: left)
        if left <= 0 { context.close(promise: nil) }
        return
      }
    }
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ChannelShouldQuiesceEvent {
      // The server stops: a connection waiting for a request (or in the middle of one) is
      // closed now, one with requests being answered once they are.
      phase = .dropping
      closeWhenAnswered = true
      if unanswered == 0 { context.close(promise: nil) }
      return
    }
    if let event = event as? ChannelEvent, event == .inputClosed {
      // The client sent all it will: answer what it asked, then close. Not passed on, so
      // that the decoder does not take a half-sent head for an error to answer.
      if case .lingering = phase {
        context.close(promise: nil)
        return
      }
      if case .dropping = phase {
        if unanswered == 0 { closeWhenAnswered = true }
      } else {
        phase = .dropping
        closeWhenAnswered = true
        cancelDeadline()
        if unanswered == 0 { context.close(promise: nil) }
      }
      return
    }
    context.fireUserInboundEventTriggered(event)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    pendingWrites += 1
    if writeDeadline == nil {
      writeDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.writeTime)) {
        [context] in
        context.close(promise: nil)
      }
    }
    let promise = promise ?? context.eventLoop.makePromise()
    promise.futureResult.assumeIsolated().whenComplete { _ in
      self.pendingWrites -= 1
      if self.pendingWrites == 0 {
        self.writeDeadline?.cancel()
        self.writeDeadline = nil
      }
    }
    context.write(data, promise: promise)
  }

  // MARK: - What RequestFraming tells

  /// The decoder read a head whose body is `bodyLength` bytes: they come next.
  func requestReceived(bodyLength: Int) {
    guard case .handedOn = phase else { return }
    unanswered += 1
    servedAny = true
    cancelDeadline()
    if bodyLength > 0 {
      phase = .body(remaining: bodyLength)
      setDeadline(limits.bodyTime) { guard_ in
        guard_.refuse(
          RequestError(
            status: .requestTimeout,
            message: "the request body did not arrive within \(describe(guard_.limits.bodyTime))"))
      }
    } else {
      phase = .idle(blank: 0)
    }
  }

  /// Refuses the request being read: nothing more goes to the decoder, and `error` goes up
  /// the pipeline to be answered (with `Connection: close`).
  func refuse(_ error: RequestError) {
    guard let context else { return }
    stopReading()
    context.fireErrorCaught(error)
  }

  /// Sends nothing more to the decoder (which failed, or a refusal is on its way). The
  /// answer must then come within the write time.
  func stopReading() {
    switch phase {
    case .dropping, .lingering: return
    default: break
    }
    phase = .dropping
    setDeadline(limits.writeTime) { $0.context?.close(promise: nil) }
  }

  /// An answer was written whole; `closing` when it said `Connection: close` (a refusal
  /// among them).
  func responseWritten(closing: Bool) {
    guard let context else { return }
    unanswered = max(0, unanswered - 1)
    if closing {
      linger()
    } else if closeWhenAnswered {
      if unanswered == 0 { context.close(promise: nil) }
    } else if unanswered == 0, case .idle = phase {
      waitForRequest()
    }
  }

  // MARK: - Deadlines

  /// Waits for the next request: the head time for a new connection's first, else the
  /// keep-alive time; past it, closes the connection without an answer.
  private func waitForRequest() {
    setDeadline(servedAny ? limits.keepAliveTime : limits.headTime) { $0.context?.close(promise: nil) }
  }

  /// After the last answer: shuts the sending side down and drops what arrives (at most 64 ×
  /// the body limit, for at most the linger time) before closing.
  private func linger() {
    guard let context else { return }
    if case .lingering = phase { return }
    let (product, overflow) = limits.bodyBytes.multipliedReportingOverflow(by: 64)
    phase = .lingering(budget: overflow ? Int.max : product)
    context.close(mode: .output, promise: nil)
    setDeadline(limits.lingerTime) { $0.context?.close(promise: nil) }
  }

  private func setDeadline(_ time: Duration, _ expire: @escaping (ConnectionGuard) -> Void) {
    guard let context else { return }
    cancelDeadline()
    deadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(time)) {
      self.deadline = nil
      expire(self)
    }
  }

  private func cancelDeadline() {
    deadline?.cancel()
    deadline = nil
  }

  private func cancelDeadlines() {
    cancelDeadline()
    writeDeadline?.cancel()
    writeDeadline = nil
  }
}

@available(*, unavailable)
extension ConnectionGuard: Sendable {}

/// How many connections are open, against the limit; shared by every connection.
final class ConnectionAdmission: Sendable {
  /// The most connections at once.
  let capacity: Int
  private let state = Locked((open: 0, stopping: false))

  init(capacity: Int) { self.capacity = max(1, capacity) }

  /// Counts a new connection in, unless the limit is reached or the server stops.
  func admit() -> Bool {
    state.withLock { state in
      guard !state.stopping, state.open < capacity else { return false }
      state.open += 1
      return true
    }
  }

  /// Counts an admitted connection out.
  func release() { state.withLock { $0.open -= 1 } }

  /// How many connections are open.
  var count: Int { state.withLock { $0.open } }

  /// Whether ``stop()`` was called.
  var isStopping: Bool { state.withLock { $0.stopping } }

  /// Refuses every connection from now on.
  func stop() { state.withLock { $0.stopping = true } }
}

/// `duration` in words: "300 ms", "10 s".
func describe(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  if attoseconds == 0 { return "\(seconds) s" }
  return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
}
