#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Sockets: swift-system 1.8.1 has none of their calls. A socket's `read` and `close` are a
// file's (``FileDescriptor/readSome(into:)``, `close()`).

extension FileDescriptor {
  /// A new TCP socket connected to `host` (an IPv4 address such as `127.0.0.1`) at `port`
  /// (`socket(2)`, `connect(2)`), close-on-exec, blocking.
  /// - Throws: `EINVAL` when `host` is not an IPv4 address; the failed call's errno otherwise.
  package static func connectedTCPSocket(toIPv4 host: String, port: UInt16) throws(Errno) -> FileDescriptor {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw .invalidArgument }
    #if canImport(Glibc)
      let kind = Int32(SOCK_STREAM.rawValue)
    #else
      let kind = SOCK_STREAM
    #endif
    let socket = FileDescriptor(
      rawValue: try SystemCall.retryingOnInterrupt { SwipeDictSystem.systemSocket(AF_INET, kind) })
    socket.setCloseOnExec()
    do throws(Errno) {
      // A connect interrupted by a signal goes on in the background (POSIX); a second call
      // would fail with EALREADY, so it is not repeated: the error is reported.
      let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      if result != 0 { throw SystemCall.lastError }
    } catch {
      socket.closeIgnoringFailure()
      throw error
    }
    return socket
  }

  /// Writes at most `bytes.count` bytes to a socket, without SIGPIPE when the peer is gone
  /// (`send(2)` with `MSG_NOSIGNAL` where it exists; on Apple systems, which lack it, a socket
  /// gets ``suppressBrokenPipeSignal()``), retried on EINTR.
  /// - Returns: the number of bytes written.
  /// - Throws: `EAGAIN`/`EWOULDBLOCK` when a non-blocking socket takes nothing now; `EPIPE`,
  ///   `ECONNRESET` when the peer is gone.
  package func send(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
    guard !bytes.isEmpty else { return 0 }
    #if canImport(Darwin)
      return try SystemCall.retryingOnInterrupt { Darwin.send(rawValue, bytes.baseAddress, bytes.count, 0) }
    #elseif canImport(Musl)
      return try SystemCall.retryingOnInterrupt { Musl.send(rawValue, bytes.baseAddress, bytes.count, MSG_NOSIGNAL) }
    #else
      return try SystemCall.retryingOnInterrupt {
        Glibc.send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
      }
    #endif
  }

  /// Reads at most `buffer.count` bytes from a socket (`recv(2)`), retried on EINTR.
  /// - Returns: the number of bytes read; 0 when the peer closed the connection.
  /// - Throws: `EAGAIN`/`EWOULDBLOCK` when nothing came in time (``setReceiveTimeout(_:)``) or,
  ///   non-blocking, when nothing is there.
  package func receive(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try SystemCall.retryingOnInterrupt { recv(rawValue, buffer.baseAddress, buffer.count, 0) }
  }

  /// Shuts down the reading side (`read: true, write: false`), the writing side or both
  /// (`shutdown(2)`); a read or write waiting on the socket wakes up. Errors (a socket already
  /// disconnected) are ignored.
  package func shutdown(read: Bool, write: Bool) {
    #if canImport(Glibc)
      let how = read && write ? Int32(SHUT_RDWR) : read ? Int32(SHUT_RD) : Int32(SHUT_WR)
      _ = Glibc.shutdown(rawValue, how)
    #elseif canImport(Musl)
      let how = read && write ? SHUT_RDWR : read ? SHUT_RD : SHUT_WR
      _ = Musl.shutdown(rawValue, how)
    #else
      let how = read && write ? SHUT_RDWR : read ? SHUT_RD : SHUT_WR
      _ = Darwin.shutdown(rawValue, how)
    #endif
  }

  /// Sends small writes at once, without waiting to gather more (`TCP_NODELAY`, Nagle's
  /// algorithm off; `setsockopt(2)`). Best effort.
  package func setNoDelay() {
    var one: Int32 = 1
    _ = setsockopt(rawValue, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
  }

  /// On Apple systems, a write to a socket whose peer is gone fails with `EPIPE` instead of
  /// raising SIGPIPE (`SO_NOSIGPIPE`, which Apple's `setsockopt(2)` documents; elsewhere
  /// ``send(_:)`` passes `MSG_NOSIGNAL` instead). Best effort.
  package func suppressBrokenPipeSignal() {
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(rawValue, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  /// Sets how long a read waits (`nil`: forever; `SO_RCVTIMEO`). Best effort.
  package func setReceiveTimeout(_ timeout: Duration?) {
    let (seconds, attoseconds) = (timeout ?? .zero).components
    var value = timeval()
    value.tv_sec = .init(seconds)
    value.tv_usec = .init(attoseconds / 1_000_000_000_000)
    if timeout != nil && seconds == 0 && value.tv_usec == 0 { value.tv_usec = 1 }
    _ = setsockopt(rawValue, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
  }
}

/// `socket(2)`, named apart from the variables called `socket`.
private func systemSocket(_ domain: Int32, _ type: Int32) -> Int32 {
  socket(domain, type, 0)
}
