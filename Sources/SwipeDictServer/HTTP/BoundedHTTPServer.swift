import FlyingSocks
import Foundation

/// The playground's HTTP/1.1 server: an accept loop and one task per connection on
/// FlyingSocks' socket pool (epoll on Linux), with every read bounded in size and time by
/// ``PlaygroundServer/HTTPLimits``. It replaces FlyingFox's `HTTPServer`, whose request
/// reading had no bounds (see `docs/serve.md`). Requests and responses are the types of
/// `HTTPMessage.swift`; nothing of FlyingFox's HTTP module is used.
///
/// Each connection reads in chunks into a buffer of its own, scans for the end of the head
/// incrementally (``HeadScanner``), parses it (``RequestHead``), reads the body its
/// Content-Length declares, hands the request to the handler and writes the whole response
/// in one write. Requests on one connection are answered in order, pipelined ones too.
/// A ``ConnectionTable`` holds every connection's deadline; its watchdog shuts down the
/// sockets of those past it.
final class BoundedHTTPServer: Sendable {
  /// The port listened on.
  let port: UInt16
  let handler: any HTTPHandler
  let limits: PlaygroundServer.HTTPLimits
  let pool: any AsyncSocketPool
  let table: ConnectionTable
  private let listener: AsyncSocket
  /// Whether the listening socket is still open: ``stop()`` shuts it down only then (once
  /// closed, its number may be another socket's).
  private let listening = Locked(true)
  private let run: Locked<Task<Void, any Error>?> = Locked(nil)
  /// Fired first thing by ``stop()``: the accept loop ends on it.
  private let stopping = StopSignal()
  private let forced = Locked(false)

  /// How long ``stop()`` waits for the server's tasks to end before it cancels them.
  static let stopGrace: Duration = .seconds(5)

  /// Whether ``stop()`` had to cancel the server's tasks: they had not ended within
  /// ``stopGrace`` of the shutdown.
  var stopWasForced: Bool { forced.withLock { $0 } }

  private init(
    port: UInt16, handler: any HTTPHandler, limits: PlaygroundServer.HTTPLimits, pool: any AsyncSocketPool,
    listener: AsyncSocket
  ) {
    self.port = port
    self.handler = handler
    self.limits = limits
    self.pool = pool
    self.listener = listener
    let shortest = [limits.headTime, limits.bodyTime, limits.keepAliveTime, limits.writeTime, limits.lingerTime].min()
    let tick = min(.milliseconds(250), max(.milliseconds(5), (shortest ?? .seconds(1)) / 4))
    table = ConnectionTable(capacity: max(1, limits.connections), tick: tick)
  }

  /// Binds `address`, listens, and serves in the background until ``stop()``.
  /// - Throws: when the address cannot be bound or listened on.
  static func start(
    address: any SocketAddress, handler: any HTTPHandler, limits: PlaygroundServer.HTTPLimits
  ) async throws -> BoundedHTTPServer {
    let socket = try Socket(domain: Int32(type(of: address).family))
    let port: UInt16
    let pool: any AsyncSocketPool = SocketPool.make()
    let listener: AsyncSocket
    do {
      try socket.setValue(true, for: .localAddressReuse)
      #if canImport(Darwin)
        try socket.setValue(true, for: .noSIGPIPE)
      #endif
      try socket.bind(to: address)
      try socket.listen()
      switch try socket.sockname() {
      case .ip4(_, let bound), .ip6(_, let bound): port = bound
      case .unix: throw PlaygroundServerError(message: "the server listens on no IP address")
      }
      listener = try AsyncSocket(socket: socket, pool: pool)
      // Last: a prepared pool holds descriptors (its epoll queue) that only its run closes.
      try await pool.prepare()
    } catch {
      try? socket.close()
      throw error
    }
    let server = BoundedHTTPServer(port: port, handler: handler, limits: limits, pool: pool, listener: listener)
    server.table.startWatchdog()
    let task: Task<Void, any Error>
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
      let executor = ServerExecutor(threads: min(max(2, ProcessInfo.processInfo.activeProcessorCount), 16))
      task = Task(executorPreference: executor) {
        defer { executor.shutDown() }
        try await server.serve()
      }
    } else {
      task = Task { try await server.serve() }
    }
    server.run.withLock { $0 = task }
    return server
  }

  /// Waits until the server stops: returns after ``stop()``, throws when listening failed.
  func wait() async throws {
    guard let task = run.withLock({ $0 }) else { return }
    try await task.value
  }

  /// Stops listening, shuts every connection down, and waits for their tasks to end
  /// (after ``stopGrace`` it cancels them, then waits for them to end).
  func stop() async {
    guard stopping.fire() else { return }
    listening.withLock { open in
      if open { SocketCalls.shutdown(listener.socket.file.rawValue, read: true, write: true) }
    }
    table.stop()
    guard let task = run.withLock({ $0 }) else { return }
    let timeout = Task {
      try await Task.sleep(for: Self.stopGrace)
      forced.withLock { $0 = true }
      task.cancel()
    }
    _ = try? await task.value
    timeout.cancel()
  }

  /// The pool's loop beside the accept loop; when either ends, so does the other.
  private func serve() async throws {
    defer {
      table.finish()
      listening.withLock { open in
        open = false
        try? listener.close()
      }
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await self.pool.run() }
      group.addTask { try await self.acceptConnections() }
      defer { group.cancelAll() }
      try await group.next()
    }
  }

  /// Accepts connections until the server stops, each served by a task of its own.
  private func acceptConnections() async throws {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      try await withThrowingDiscardingTaskGroup { group in
        try await acceptLoop { connection in group.addTask(operation: connection) }
        await endConnections { group.cancelAll() }
      }
    } else {
      try await withThrowingTaskGroup(of: Void.self) { group in
        try await acceptLoop { connection in group.addTask(operation: connection) }
        await endConnections { group.cancelAll() }
      }
    }
  }

  /// Once the accept loop ended (the server stops): ``stop()`` shut every connection's socket
  /// down, so each ends by itself, unless the pool lost the wake-up of one waiting for its
  /// socket (the lost HUP of ``nextConnection()``, which a connection registered again while
  /// the pool waited can meet too). Those are cancelled after ``connectionGrace``: their
  /// sockets are shut down, so nothing more could be read or written on them anyway.
  private func endConnections(cancelling cancel: () -> Void) async {
    let giveUp = ContinuousClock.now + Self.connectionGrace
    while table.count > 0, ContinuousClock.now < giveUp {
      try? await Task.sleep(for: .milliseconds(5))
    }
    cancel()
  }

  /// How long stopping waits for shut-down connections to end before cancelling them.
  static let connectionGrace: Duration = .seconds(1)

  private func acceptLoop(spawn: (@escaping @Sendable () async -> Void) -> Void) async throws {
    while true {
      let client: AsyncSocket
      do {
        guard let next = try await nextConnection() else { return }
        client = next
      } catch {
        if stopping.isFired { return }
        if case SocketError.failed(_, let code, _) = error, Self.transientAcceptErrors.contains(code) {
          // Out of descriptors or memory, or a client gone before it was accepted: wait a
          // little and go on (the pending connection stays in the backlog).
          try await Task.sleep(for: .milliseconds(10))
          continue
        }
        throw error
      }
      let fd = client.socket.file.rawValue
      SocketCalls.prepareConnection(fd)
      guard table.admit(fd) else {
        refuseOverCapacity(fd)
        continue
      }
      spawn { await ClientConnection(server: self, socket: client).run() }
    }
  }

  /// The next connection, or `nil` once the server stops.
  ///
  /// ``stop()`` shuts the listening socket down, which wakes the wait for it, but that
  /// wake-up can be lost: its epoll event has neither IN nor OUT (only HUP), and FlyingSocks'
  /// pool then matches it against a copy of its registrations taken when it began to wait,
  /// which lacks the listener whenever the listener was registered again after that (after
  /// each accepted connection, while other sockets are waited for). So the wait for the
  /// listener races a wait for ``stop()``'s signal.
  private func nextConnection() async throws -> AsyncSocket? {
    while !stopping.isFired {
      do {
        let socket = Socket(file: try listener.socket.accept().file)
        do {
          return try AsyncSocket(socket: socket, pool: pool)
        } catch {
          try? socket.close()
          throw error
        }
      } catch SocketError.blocked {
        // Nothing to accept: wait below.
      }
      let ready = try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
          try await self.pool.suspendSocket(self.listener.socket, untilReadyFor: .connection)
          return true
        }
        group.addTask {
          await self.stopping.wait()
          return false
        }
        defer { group.cancelAll() }
        return try await group.next() ?? false
      }
      guard ready else { return nil }
    }
    return nil
  }

  private static let transientAcceptErrors: Set<Int32> = [
    EMFILE, ENFILE, ENOBUFS, ENOMEM, ECONNABORTED, EPROTO, EPERM, EINTR,
  ]

  /// Answers 503 to a connection beyond the limit without waiting for anything: one
  /// non-blocking write, what the client has sent so far read and dropped, then closed.
  private func refuseOverCapacity(_ fd: Int32) {
    let error = RequestError(
      status: .serviceUnavailable,
      message: table.isStopping
        ? "the server is stopping"
        : "the server has \(table.capacity) connections open, its limit: try again later")
    let bytes = ResponseEncoder.encode(.error(error), keepAlive: false, headOnly: false)
    _ = bytes.withUnsafeBytes { SocketCalls.send(fd, $0) }
    SocketCalls.shutdown(fd, read: false, write: true)
    var scratch = [UInt8](repeating: 0, count: 16_384)
    _ = scratch.withUnsafeMutableBytes { SocketCalls.read(fd, into: $0) }
    SocketCalls.close(fd)
  }
}

/// One client connection's loop, run by its own task: request after request until the
/// client closes, a request is refused, a deadline passes or the server stops.
private final class ClientConnection {
  private let server: BoundedHTTPServer
  private let socket: Socket
  private let fd: Int32
  private var limits: PlaygroundServer.HTTPLimits { server.limits }
  private var table: ConnectionTable { server.table }

  /// What has been read and not yet used: `storage[start..<end]`.
  private var storage = [UInt8](repeating: 0, count: ClientConnection.chunk)
  private var start = 0
  private var end = 0

  /// The usual read size, and the buffer's size between requests.
  private static let chunk = 16_384

  /// What waiting for bytes gave.
  private enum Fill {
    /// Bytes arrived.
    case more
    /// The client closed the connection or it failed.
    case closed
    /// A deadline passed (or the server stops).
    case expired
  }

  init(server: BoundedHTTPServer, socket: AsyncSocket) {
    self.server = server
    self.socket = socket.socket
    fd = socket.socket.file.rawValue
  }

  func run() async {
    defer { table.release(fd) }
    // A new connection's first byte must come within the head time, the next request on a
    // kept-alive one within the keep-alive time. Blank lines before a request (RFC 9112
    // §2.2) are dropped and are no request: they neither start the head time (a 408 to an
    // idle client) nor move the idle deadline, and more than a head's worth is refused.
    var idleUntil = ContinuousClock.now + limits.headTime
    var blank = 0
    while true {
      while start < end, storage[start] == 0x0D || storage[start] == 0x0A {
        start += 1
        blank += 1
      }
      guard blank <= limits.headBytes else {
        await refuse(.bad("the request holds only blank lines"))
        return
      }
      if start == end {
        start = 0
        end = 0
        if storage.count > 4 * Self.chunk { storage = [UInt8](repeating: 0, count: Self.chunk) }
        guard table.setDeadline(fd, idleUntil), await fill() == .more else { return }
        continue
      }
      guard await serveRequest() else { return }
      idleUntil = ContinuousClock.now + limits.keepAliveTime
      blank = 0
    }
  }

  /// Reads one request (its first byte has arrived), answers it.
  /// - Returns: whether the connection stays open.
  private func serveRequest() async -> Bool {
    table.setDeadline(fd, ContinuousClock.now + limits.headTime, .reading)
    var scanner = HeadScanner(limit: limits.headBytes)
    let found: HeadScanner.Head
    let head: RequestHead
    do throws(RequestError) {
      while true {
        if let done = try scanner.scan(storage[start..<end]) {
          found = done
          break
        }
        switch await fill() {
        case .more: continue
        case .closed: return false
        case .expired:
          throw RequestError(
            status: .requestTimeout, message: "the request head did not arrive within \(describe(limits.headTime))")
        }
      }
      head = try RequestHead.parse(
        storage[(start + found.lines.lowerBound)..<(start + found.lines.upperBound)], maxFields: limits.headerFields)
      guard head.contentLength <= limits.bodyBytes else {
        throw RequestError(
          status: .contentTooLarge, message: "the body is over the limit of \(limits.bodyBytes) bytes")
      }
    } catch {
      await refuse(error)
      return false
    }
    start += found.end
    if end - start < head.contentLength {
      if head.expectsContinue && head.version == .http11 {
        // Under the write time: a write is woken only by shutting down the writing side,
        // which the head's deadline (reading) does not.
        table.setDeadline(fd, ContinuousClock.now + limits.writeTime)
        guard await write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return false }
      }
      table.setDeadline(fd, ContinuousClock.now + limits.bodyTime, .reading)
      while end - start < head.contentLength {
        switch await fill(atLeast: head.contentLength - (end - start)) {
        case .more: continue
        case .closed: return false
        case .expired:
          await refuse(
            RequestError(
              status: .requestTimeout, message: "the request body did not arrive within \(describe(limits.bodyTime))"))
          return false
        }
      }
    }
    let body = Array(storage[start..<(start + head.contentLength)])
    start += head.contentLength
    table.setDeadline(fd, nil)
    let response: HTTPResponse
    do throws(RequestError) {
      let request = try HTTPRequest(head: head, body: body)
      do {
        response = try await server.handler.handleRequest(request)
      } catch {
        response = .error(RequestError(status: .internalServerError, message: "the request failed: \(error)"))
      }
    } catch {
      response = .error(error)
    }
    let closes = response.headers.values(for: "Connection").contains { $0.lowercased().contains("close") }
    let keepAlive = head.keepAlive && !closes
    let bytes = ResponseEncoder.encode(
      response, keepAlive: keepAlive, version: head.version, headOnly: head.method == "HEAD")
    table.setDeadline(fd, ContinuousClock.now + limits.writeTime)
    guard await write(bytes) else { return false }
    guard keepAlive, table.isLive(fd) else {
      await linger()
      return false
    }
    return true
  }

  /// Answers `error` with `Connection: close`, then lingers.
  private func refuse(_ error: RequestError) async {
    let bytes = ResponseEncoder.encode(.error(error), keepAlive: false, headOnly: false)
    table.setDeadline(fd, ContinuousClock.now + limits.writeTime)
    guard await write(bytes) else { return }
    await linger()
  }

  /// After the last answer: sends the end of the stream, then reads and drops what the
  /// client still sends (at most 64 × the body limit, for at most the linger time), so that
  /// closing the socket with unread bytes does not reset the connection before the client
  /// has read the answer.
  private func linger() async {
    SocketCalls.shutdown(fd, read: false, write: true)
    table.setDeadline(fd, ContinuousClock.now + limits.lingerTime)
    let (product, overflow) = limits.bodyBytes.multipliedReportingOverflow(by: 64)
    var budget = overflow ? Int.max : product
    while budget > 0 {
      start = 0
      end = 0
      guard await fill() == .more else { return }
      budget -= end
    }
  }

  /// Waits for bytes and reads them after `end` (at least `atLeast` bytes of room).
  private func fill(atLeast: Int = ClientConnection.chunk) async -> Fill {
    makeRoom(max(atLeast, Self.chunk))
    while true {
      let (fd, end) = (self.fd, self.end)
      let result = storage.withUnsafeMutableBytes { raw in
        SocketCalls.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
      }
      switch result {
      case .moved(let count):
        self.end += count
        return table.isLive(fd) ? .more : .expired
      case .end, .failed:
        return table.isLive(fd) ? .closed : .expired
      case .wouldBlock:
        do {
          try await server.pool.suspendSocket(socket, untilReadyFor: .read)
        } catch {
          return table.isLive(fd) ? .closed : .expired
        }
      }
    }
  }

  /// Writes all of `bytes`.
  /// - Returns: whether they were all written.
  private func write(_ bytes: [UInt8]) async -> Bool {
    var sent = 0
    while sent < bytes.count {
      let (fd, offset) = (self.fd, sent)
      let result = bytes.withUnsafeBytes { SocketCalls.send(fd, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
      switch result {
      case .moved(let count):
        sent += count
      case .wouldBlock:
        do {
          try await server.pool.suspendSocket(socket, untilReadyFor: .write)
        } catch {
          return false
        }
      case .end, .failed:
        return false
      }
    }
    return true
  }

  /// Makes room for at least `count` bytes after `end`: moves the unused bytes to the
  /// front, then grows the buffer if that is not enough.
  private func makeRoom(_ count: Int) {
    guard storage.count - end < count else { return }
    if start > 0 {
      let (from, length) = (start, end - start)
      storage.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress, length > 0 else { return }
        base.copyMemory(from: base + from, byteCount: length)
      }
      start = 0
      end = length
    }
    if storage.count - end < count {
      storage.append(contentsOf: repeatElement(0, count: count - (storage.count - end)))
    }
  }
}

/// The bytes of a response: status line, header fields (sorted by name), Content-Length and
/// Connection, then the body, in one buffer for one write.
enum ResponseEncoder {
  /// Encodes `response`.
  /// - Parameters:
  ///   - keepAlive: whether the connection stays open (else `Connection: close`).
  ///   - version: the request's version (an HTTP/1.0 connection kept alive says so).
  ///   - headOnly: for HEAD: the header fields of the body, without it.
  static func encode(
    _ response: HTTPResponse, keepAlive: Bool, version: HTTPVersion = .http11, headOnly: Bool
  ) -> [UInt8] {
    let code = response.status.code
    let body = response.body
    var text = "HTTP/1.1 \(code) \(response.status.phrase)\r\n"
    let framing = ["Content-Length", "Connection", "Transfer-Encoding"]
    let fields = response.headers.fields.enumerated().sorted {
      ($0.element.name, $0.offset) < ($1.element.name, $1.offset)
    }
    for (_, field) in fields where !framing.contains(where: { HTTPHeaderFields.namesMatch($0, field.name) }) {
      guard !field.value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
      text += "\(field.name): \(field.value)\r\n"
    }
    let bodiless = code < 200 || code == 204 || code == 304
    if !bodiless { text += "Content-Length: \(body.count)\r\n" }
    if !keepAlive {
      text += "Connection: close\r\n"
    } else if version != .http11 {
      text += "Connection: keep-alive\r\n"
    }
    text += "\r\n"
    var bytes = Array(text.utf8)
    if !bodiless && !headOnly {
      bytes.reserveCapacity(bytes.count + body.count)
      bytes.append(contentsOf: body)
    }
    return bytes
  }
}

/// `duration` in words: "300 ms", "10 s".
private func describe(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  if attoseconds == 0 { return "\(seconds) s" }
  return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
}

/// A signal fired once, which tasks wait for; a waiting task that is cancelled stops
/// waiting.
private final class StopSignal: Sendable {
  private struct State {
    var fired = false
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextID = 0
  }
  private let state = Locked(State())

  /// Whether ``fire()`` was called.
  var isFired: Bool { state.withLock { $0.fired } }

  /// Fires the signal: every wait returns.
  /// - Returns: `false` when it had been fired already.
  func fire() -> Bool {
    let waiters: [CheckedContinuation<Void, Never>]? = state.withLock { state in
      guard !state.fired else { return nil }
      state.fired = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters ?? [] { waiter.resume() }
    return waiters != nil
  }

  /// Returns once the signal is fired or the task is cancelled.
  func wait() async {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        // A cancellation before this point found no waiter to resume: it is seen here.
        let now = state.withLock { state in
          if state.fired || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }
}
