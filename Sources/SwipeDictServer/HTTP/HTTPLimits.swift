extension PlaygroundServer {
  /// The bounds of the server's HTTP connections: what one client may send, how long it may
  /// take, and how many clients may be connected at once. A request past a bound gets a 4xx
  /// (`{"error": "…"}`, then the connection is closed) and never stops the server.
  ///
  /// Every request's head is scanned once as it arrives, so reading it costs time linear in
  /// its length, at most ``headBytes``.
  public struct HTTPLimits: Sendable {
    /// The most bytes of a request head: the request line and the header fields with their
    /// line ends and the blank line. Beyond it: 414 while the request line is still being
    /// read (its target is too long), 431 (Request Header Fields Too Large) after it.
    public var headBytes = 16 * 1024
    /// The most header fields in one request (431 beyond).
    public var headerFields = 100
    /// The largest request body, as declared by Content-Length (413 beyond).
    public var bodyBytes = 1 << 20
    /// How long a request head may take to arrive from its first byte (408 after).
    public var headTime: Duration = .seconds(10)
    /// How long a request body may take to arrive after its head (408 after).
    public var bodyTime: Duration = .seconds(30)
    /// How long a kept-alive connection may wait for its next request before it is closed
    /// (without an answer). A new connection's first byte must come within ``headTime``.
    public var keepAliveTime: Duration = .seconds(60)
    /// How long a response may take to be written: a client that does not read it is
    /// disconnected after that.
    public var writeTime: Duration = .seconds(10)
    /// After a refusal (or a `Connection: close` answer), how long the server keeps reading
    /// and discarding what the client still sends (at most 64 × ``bodyBytes``) so that the
    /// client reads the answer rather than a reset, before it closes the connection.
    public var lingerTime: Duration = .seconds(2)
    /// The most connections open at once; a connection beyond them gets 503 and is closed.
    public var connections = 256

    /// The defaults: heads of 16 KiB and 100 fields within 10 s, bodies of 1 MiB within
    /// 30 s, 60 s idle, 10 s to write, 2 s lingering, 256 connections.
    public init() {}
  }
}
