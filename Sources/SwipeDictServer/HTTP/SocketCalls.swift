#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The socket system calls of the connection loop, one function each, on non-blocking
/// sockets: EINTR is retried here, and `-1` becomes ``IOResult/wouldBlock`` or
/// ``IOResult/failed(_:)``.
enum SocketCalls {
  /// What a read or a write did.
  enum IOResult: Equatable {
    /// That many bytes moved (more than 0).
    case moved(Int)
    /// A read met the end of the stream.
    case end
    /// Nothing can move now: wait for the socket.
    case wouldBlock
    /// The call failed with this errno.
    case failed(Int32)
  }

  /// Reads at most `buffer.count` bytes into `buffer`. The corresponding C function is
  /// `read`.
  static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
    while true {
      let n = systemRead(fd, buffer.baseAddress, buffer.count)
      if n > 0 { return .moved(n) }
      if n == 0 { return .end }
      let error = errno
      if error == EINTR { continue }
      return error == EAGAIN || error == EWOULDBLOCK ? .wouldBlock : .failed(error)
    }
  }

  /// Writes at most `bytes.count` bytes, without SIGPIPE when the peer is gone. The
  /// corresponding C function is `send` (with `MSG_NOSIGNAL` where it exists).
  static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> IOResult {
    guard !bytes.isEmpty else { return .moved(0) }
    while true {
      #if canImport(Darwin)
        let n = Darwin.send(fd, bytes.baseAddress, bytes.count, 0)
      #elseif canImport(Musl)
        let n = Musl.send(fd, bytes.baseAddress, bytes.count, MSG_NOSIGNAL)
      #else
        let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
      #endif
      if n >= 0 { return .moved(n) }
      let error = errno
      if error == EINTR { continue }
      return error == EAGAIN || error == EWOULDBLOCK ? .wouldBlock : .failed(error)
    }
  }

  /// Shuts down the reading side (`read: true, write: false`), the writing side or both;
  /// a read or write waiting on the socket wakes up. The corresponding C function is
  /// `shutdown`. Errors (a socket already disconnected) are ignored.
  static func shutdown(_ fd: Int32, read: Bool, write: Bool) {
    #if canImport(Glibc)
      let how = read && write ? Int32(SHUT_RDWR) : read ? Int32(SHUT_RD) : Int32(SHUT_WR)
      _ = Glibc.shutdown(fd, how)
    #elseif canImport(Musl)
      let how = read && write ? SHUT_RDWR : read ? SHUT_RD : SHUT_WR
      _ = Musl.shutdown(fd, how)
    #else
      let how = read && write ? SHUT_RDWR : read ? SHUT_RD : SHUT_WR
      _ = Darwin.shutdown(fd, how)
    #endif
  }

  /// Closes `fd`. The corresponding C function is `close`.
  static func close(_ fd: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(fd)
    #elseif canImport(Musl)
      _ = Musl.close(fd)
    #else
      _ = Darwin.close(fd)
    #endif
  }

  /// Turns Nagle's algorithm off (`TCP_NODELAY`) and, on Darwin, SIGPIPE (`SO_NOSIGPIPE`).
  /// The corresponding C function is `setsockopt`.
  static func prepareConnection(_ fd: Int32) {
    var one: Int32 = 1
    let size = socklen_t(MemoryLayout<Int32>.size)
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, size)
    #if canImport(Darwin)
      _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, size)
    #endif
  }

  private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(fd, buffer, count)
    #elseif canImport(Musl)
      Musl.read(fd, buffer, count)
    #else
      Darwin.read(fd, buffer, count)
    #endif
  }
}
