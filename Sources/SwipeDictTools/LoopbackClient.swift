import SwipeDictSystem

/// A minimal blocking HTTP/1.1 client over one keep-alive TCP connection: the load test's
/// (`swipedict-bench serve-load`) and the tests' way to talk to the playground server
/// (`swipedict serve`) the way a page does, including requests no browser would send (broken
/// JSON, huge bodies, raw bytes).
///
/// Not thread-safe: one client per thread. It reconnects when the server closed the
/// connection (after a `Connection: close` response).
public final class LoopbackClient {
  /// A response: its status, headers (names lowercased) and body.
  public struct Response: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, names lowercased.
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// Why a request failed below HTTP.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String
    /// A failure described by `description`.
    public init(description: String) { self.description = description }
  }

  private let host: String
  private let port: UInt16
  private var socket: FileDescriptor?
  private var buffer: [UInt8] = []

  /// How many connections the client has opened: 1 while the server keeps the first one
  /// alive.
  public private(set) var connections = 0

  /// A client of `host` (an IPv4 address) at `port`; connects on the first request.
  public init(host: String = "127.0.0.1", port: UInt16) {
    self.host = host
    self.port = port
  }

  deinit { disconnect() }

  /// Sends a request and reads the response.
  /// - Parameters:
  ///   - method: `GET`, `POST`, `DELETE`…
  ///   - path: the target, with its query.
  ///   - body: the body (sent with its `Content-Length`), or `nil`.
  /// - Throws: ``Failure`` when the connection fails or the response is not HTTP.
  public func request(_ method: String, _ path: String, body: [UInt8]? = nil) throws(Failure) -> Response {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\n"
    if let body {
      head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
    }
    head += "\r\n"
    return try send(Array(head.utf8) + (body ?? []), bodiless: method == "HEAD")
  }

  /// Sends `string` as a UTF-8 JSON body.
  public func request(_ method: String, _ path: String, json: String) throws(Failure) -> Response {
    try request(method, path, body: Array(json.utf8))
  }

  /// Sends raw bytes as a request (retrying once on a fresh connection if the kept-alive
  /// one was closed) and reads one response.
  /// - Parameter bodiless: the response has no body whatever its Content-Length (the
  ///   answer to HEAD).
  public func send(_ bytes: [UInt8], bodiless: Bool = false) throws(Failure) -> Response {
    let fresh = socket == nil
    do {
      try connectIfNeeded()
      try write(bytes)
      return try readResponse(bodiless: bodiless)
    } catch {
      disconnect()
      guard !fresh else { throw error }
      try connectIfNeeded()
      try write(bytes)
      return try readResponse(bodiless: bodiless)
    }
  }

  /// Opens the connection now (a request opens it when needed).
  /// - Throws: ``Failure`` when the server cannot be reached.
  public func openConnection() throws(Failure) {
    try connectIfNeeded()
  }

  /// Sends raw bytes on the connection (opened if needed) without reading anything: a part
  /// of a request, several requests at once, bytes that are not HTTP.
  /// - Throws: ``Failure`` when the connection fails.
  public func write(raw bytes: [UInt8]) throws(Failure) {
    try connectIfNeeded()
    try write(bytes)
  }

  /// Reads the next response, waiting at most `timeout` for each piece of it.
  /// - Returns: the response, or `nil` when the server closed (or reset) the connection
  ///   before a response began.
  /// - Throws: ``Failure`` when nothing arrives within `timeout`, or the response is broken.
  public func response(within timeout: Duration) throws(Failure) -> Response? {
    guard let socket else { throw Failure(description: "not connected") }
    socket.setReceiveTimeout(timeout)
    defer { self.socket?.setReceiveTimeout(nil) }
    if buffer.isEmpty, try !fillUnlessEnded() {
      disconnect()
      return nil
    }
    return try readResponse()
  }

  /// Reads everything until the server closes the connection (or resets it), waiting at
  /// most `timeout` for each piece, then disconnects.
  /// - Returns: the bytes read (with those of a partly read response).
  /// - Throws: ``Failure`` when the connection stays open past `timeout`.
  public func readToEnd(within timeout: Duration) throws(Failure) -> [UInt8] {
    guard let socket else { throw Failure(description: "not connected") }
    socket.setReceiveTimeout(timeout)
    defer { self.socket?.setReceiveTimeout(nil) }
    while try fillUnlessEnded() {}
    let bytes = buffer
    disconnect()
    return bytes
  }

  /// Closes the connection.
  public func disconnect() {
    socket?.closeIgnoringFailure()
    socket = nil
    buffer.removeAll()
  }

  private func connectIfNeeded() throws(Failure) {
    guard socket == nil else { return }
    let fd: FileDescriptor
    do throws(Errno) {
      fd = try .connectedTCPSocket(toIPv4: host, port: port)
    } catch {
      if error == .invalidArgument { throw Failure(description: "not an IPv4 address: \(host)") }
      throw Failure(description: "cannot connect to \(host):\(port): errno \(error.rawValue)")
    }
    fd.setNoDelay()
    fd.suppressBrokenPipeSignal()
    socket = fd
    connections += 1
  }

  private func write(_ bytes: [UInt8]) throws(Failure) {
    guard let socket else { throw Failure(description: "not connected") }
    var sent = 0
    while sent < bytes.count {
      let result = bytes[sent...].withUnsafeBytes { raw in Result { () throws(Errno) in try socket.send(raw) } }
      switch result {
      case .success(let n) where n > 0: sent += n
      case .success: throw Failure(description: "send: errno 0")
      case .failure(let error): throw Failure(description: "send: errno \(error.rawValue)")
      }
    }
  }

  private static let closed = "the server closed the connection"
  private static let reset = "the server reset the connection"

  /// Reads more bytes into the buffer.
  /// - Returns: `false` when the server closed or reset the connection.
  /// - Throws: ``Failure`` when the read fails otherwise (or times out).
  private func fillUnlessEnded() throws(Failure) -> Bool {
    do {
      try fill()
      return true
    } catch {
      guard error.description == Self.closed || error.description == Self.reset else { throw error }
      return false
    }
  }

  /// Reads more bytes into the buffer; throws at the end of the stream.
  private func fill() throws(Failure) {
    guard let socket else { throw Failure(description: "not connected") }
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let result = chunk.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try socket.receive(into: raw) } }
    let n: Int
    do throws(Errno) {
      n = try result.get()
    } catch {
      if error == .connectionReset { throw Failure(description: Self.reset) }
      if error == .resourceTemporarilyUnavailable || error == .wouldBlock {
        throw Failure(description: "no answer within the time allowed")
      }
      throw Failure(description: "recv: errno \(error.rawValue)")
    }
    if n == 0 { throw Failure(description: Self.closed) }
    buffer.append(contentsOf: chunk[..<n])
  }

  private func readResponse(bodiless: Bool = false) throws(Failure) -> Response {
    let separator: [UInt8] = [13, 10, 13, 10]
    var headEnd: Int?
    while headEnd == nil {
      if buffer.count >= 4 {
        for i in 0...(buffer.count - 4) where buffer[i..<(i + 4)].elementsEqual(separator) {
          headEnd = i
          break
        }
      }
      if headEnd == nil { try fill() }
    }
    let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
    var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
    let statusLine = lines.removeFirst().split(separator: " ")
    guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
      throw Failure(description: "not an HTTP response: \(head.prefix(80))")
    }
    var headers: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters()
    }
    let length = bodiless ? 0 : Int(headers["content-length"] ?? "0") ?? 0
    let bodyStart = headEnd! + 4
    while buffer.count < bodyStart + length { try fill() }
    let body = Array(buffer[bodyStart..<(bodyStart + length)])
    buffer.removeFirst(bodyStart + length)
    if headers["connection"]?.lowercased() == "close" { disconnect() }
    return Response(status: status, headers: headers, body: body)
  }
}

extension Substring {
  fileprivate func trimmingCharacters() -> String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
