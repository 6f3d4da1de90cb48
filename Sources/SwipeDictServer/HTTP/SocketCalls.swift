import SwipeDictSystem

/// The socket calls of the connection loop on non-blocking sockets, on the package's
/// system-call layer (`SwipeDictSystem`, which retries EINTR): a failure becomes
/// ``IOResult/wouldBlock`` or ``IOResult/failed(_:)``.
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
    do throws(Errno) {
      let n = try FileDescriptor(rawValue: fd).readSome(into: buffer)
      return n > 0 ? .moved(n) : .end
    } catch {
      return result(of: error)
    }
  }

  /// Writes at most `bytes.count` bytes, without SIGPIPE when the peer is gone. The
  /// corresponding C function is `send` (with `MSG_NOSIGNAL` where it exists).
  static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> IOResult {
    do throws(Errno) {
      return .moved(try FileDescriptor(rawValue: fd).send(bytes))
    } catch {
      return result(of: error)
    }
  }

  private static func result(of error: Errno) -> IOResult {
    error == .resourceTemporarilyUnavailable || error == .wouldBlock ? .wouldBlock : .failed(error.rawValue)
  }

  /// Shuts down the reading side (`read: true, write: false`), the writing side or both;
  /// a read or write waiting on the socket wakes up. The corresponding C function is
  /// `shutdown`. Errors (a socket already disconnected) are ignored.
  static func shutdown(_ fd: Int32, read: Bool, write: Bool) {
    FileDescriptor(rawValue: fd).shutdown(read: read, write: write)
  }

  /// Closes `fd`. The corresponding C function is `close`.
  static func close(_ fd: Int32) {
    FileDescriptor(rawValue: fd).closeIgnoringFailure()
  }

  /// Turns Nagle's algorithm off (`TCP_NODELAY`) and, on Darwin, SIGPIPE (`SO_NOSIGPIPE`).
  /// The corresponding C function is `setsockopt`.
  static func prepareConnection(_ fd: Int32) {
    let socket = FileDescriptor(rawValue: fd)
    socket.setNoDelay()
    socket.suppressBrokenPipeSignal()
  }
}
