import Foundation
import SwipeDictSystem
import SwipeDictTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system-call layer's own logic: the EINTR retry (with a closure, and with a real signal
/// interrupting a blocking read), reads and writes at offsets, the lock, the flushes, temporary
/// files, and sockets' send and receive.
@Suite("The system-call layer", .serialized, .timeLimit(.minutes(1)))
struct SystemCallTests {
  let directory = TemporaryDirectory()

  @Test("a call failing with EINTR is called again until it succeeds; its result is returned")
  func retriesInterruptedCalls() throws {
    var calls = 0
    let result = try SystemCall.retryingOnInterrupt { () -> Int32 in
      calls += 1
      if calls <= 3 {
        errno = EINTR
        return -1
      }
      return 7
    }
    #expect(result == 7)
    #expect(calls == 4)
  }

  @Test("a call failing otherwise is called once and throws its errno")
  func throwsOtherFailures() {
    var calls = 0
    #expect(throws: Errno.permissionDenied) {
      try SystemCall.retryingOnInterrupt { () -> Int in
        calls += 1
        errno = EACCES
        return -1
      }
    }
    #expect(calls == 1)
  }

  @Test("a signal interrupts a blocking read on a pipe: the raw read fails with EINTR")
  func signalsInterruptReads() throws {
    // The control for the next test: the handler is installed without SA_RESTART, so the
    // kernel does not restart the read by itself.
    let outcome = try readWhileSignalled(retrying: false, signalsBeforeWriting: nil)
    #expect(outcome.result == .failure(.interrupted))
    #expect(outcome.signals >= 1)
  }

  @Test("the layer's read goes on through the same signals and returns the bytes written after them")
  func readsRetryThroughSignals() throws {
    let outcome = try readWhileSignalled(retrying: true, signalsBeforeWriting: 5)
    #expect(outcome.result == .success([0x2A]))
    #expect(outcome.signals >= 5)
  }

  @Test("reads and writes at offsets: a short file gives fewer bytes, a truncation cuts it")
  func offsets() throws {
    let path = (directory.path + "/" + "data")
    let file = try FileDescriptor.open(
      path, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec],
      permissions: FilePermissions(rawValue: 0o600))
    defer { file.closeIgnoringFailure() }
    try file.write(all: Array("hello, world".utf8), at: 0)
    try file.write(all: Array("W".utf8), at: 7)
    #expect(try file.read(count: 5, at: 7) == Array("World".utf8))
    #expect(try file.read(count: 100, at: 7) == Array("World".utf8))
    #expect(try file.read(count: 10, at: 100) == [])
    try file.truncate(to: 5)
    #expect(try file.stat().size == 5)
    #expect(try FileSystem.status(of: path).type == .regular)
    #expect(throws: Errno.noSuchFileOrDirectory) {
      try FileDescriptor.open((directory.path + "/" + "missing"), .readOnly)
    }
  }

  @Test("the lock is exclusive between two opens of one file, and free again once released")
  func lock() throws {
    let path = directory.write("locked", "x")
    let first = try FileDescriptor.open(path, .readWrite)
    let second = try FileDescriptor.open(path, .readWrite)
    defer {
      first.closeIgnoringFailure()
      second.closeIgnoringFailure()
    }
    #expect(try first.tryLock())
    #expect(try !second.tryLock())
    first.unlock()
    #expect(try second.tryLock())
    #expect(throws: Errno.badFileDescriptor) { try FileDescriptor(rawValue: -1).tryLock() }
  }

  @Test("a file and a directory are flushed to storage; a closed descriptor names the call that failed")
  func flushes() throws {
    let path = directory.write("flushed", "x")
    let file = try FileDescriptor.open(path, .readOnly)
    try file.synchronizeToStorage()
    file.closeIgnoringFailure()
    let folder = try FileDescriptor.open(directory.path, .readOnly, options: [.directory])
    try folder.synchronizeToStorage()
    folder.closeIgnoringFailure()
    #expect(throws: FileDescriptor.SynchronizationFailure.self) {
      try FileDescriptor(rawValue: -1).synchronizeToStorage()
    }
    do throws(FileDescriptor.SynchronizationFailure) {
      try FileDescriptor(rawValue: -1).synchronizeToStorage()
    } catch {
      #expect(error.error == .badFileDescriptor)
      #if canImport(Darwin)
        #expect(error.call == "F_FULLFSYNC")
      #else
        #expect(error.call == "fsync")
      #endif
    }
  }

  @Test("a temporary file is new, close-on-exec, named from its template; rename, link and remove work on it")
  func temporaryFiles() throws {
    let (file, path) = try FileSystem.makeTemporaryFile(template: (directory.path + "/" + ".out.tmp-XXXXXX"))
    defer { file.closeIgnoringFailure() }
    #expect(
      path.hasPrefix((directory.path + "/" + ".out.tmp-"))
        && path.utf8.count == (directory.path + "/" + ".out.tmp-").utf8.count + 6)
    #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    try file.setPermissions(FilePermissions(rawValue: 0o644))
    #expect(try file.stat().permissions == FilePermissions(rawValue: 0o644))
    try FileSystem.link(path, as: (directory.path + "/" + "second"))
    #expect(throws: Errno.fileExists) { try FileSystem.link(path, as: (directory.path + "/" + "second")) }
    #expect(try file.stat().linkCount == 2)
    try FileSystem.rename(path, over: (directory.path + "/" + "out"))
    try FileSystem.remove((directory.path + "/" + "second"))
    #expect(FileSystem.exists((directory.path + "/" + "out")) && !FileSystem.exists(path))
    #expect(FileSystem.accessFailure((directory.path + "/" + "second")) == .noSuchFileOrDirectory)
    #expect(FileSystem.names(in: directory.path)?.contains("out") == true)
    #expect(FileSystem.names(in: (directory.path + "/" + "missing")) == nil)
    #expect(throws: Errno.noSuchFileOrDirectory) {
      try FileSystem.makeTemporaryFile(template: (directory.path + "/" + "missing/x-XXXXXX"))
    }
  }

  @Test("sockets: what one end sends the other receives; the end of the stream; no SIGPIPE once the peer is gone")
  func sockets() throws {
    var ends: [Int32] = [-1, -1]
    #if canImport(Glibc)
      let kind = Int32(SOCK_STREAM.rawValue)
    #else
      let kind = SOCK_STREAM
    #endif
    #expect(socketpair(AF_UNIX, kind, 0, &ends) == 0)
    let (a, b) = (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    defer { b.closeIgnoringFailure() }
    a.suppressBrokenPipeSignal()
    b.suppressBrokenPipeSignal()
    let sent = try Array("ping".utf8).withUnsafeBytes { raw throws(Errno) in try a.send(raw) }
    #expect(sent == 4)
    var buffer = [UInt8](repeating: 0, count: 16)
    let received = try buffer.withUnsafeMutableBytes { raw throws(Errno) in try b.receive(into: raw) }
    #expect(Array(buffer[..<received]) == Array("ping".utf8))
    a.shutdown(read: false, write: true)
    #expect(try buffer.withUnsafeMutableBytes { raw throws(Errno) in try b.receive(into: raw) } == 0)
    a.closeIgnoringFailure()
    #expect(throws: Errno.brokenPipe) {
      try Array("pong".utf8).withUnsafeBytes { raw throws(Errno) in try b.send(raw) }
    }
    #expect(throws: Errno.invalidArgument) { try FileDescriptor.connectedTCPSocket(toIPv4: "localhost", port: 1) }
  }

  // MARK: - A read interrupted by real signals

  /// Blocks a thread in a read of an empty pipe and sends it SIGUSR2 (handled, without
  /// SA_RESTART), each signal once the handler has run for the last: until the read returns
  /// (`signalsBeforeWriting` nil), or that many times before one byte is written to the pipe.
  private func readWhileSignalled(retrying: Bool, signalsBeforeWriting: Int?) throws
    -> (result: Result<[UInt8], Errno>, signals: Int)
  {
    installHandler()
    let (readEnd, writeEnd) = try FileDescriptor.pipe()
    defer {
      readEnd.closeIgnoringFailure()
      writeEnd.closeIgnoringFailure()
    }
    let state = ReaderState()
    let thread = Thread {
      // A thread inherits the signal mask of the one that started it: here a worker thread of
      // Dispatch, which blocks signals.
      var signals = sigset_t()
      sigemptyset(&signals)
      sigaddset(&signals, SIGUSR2)
      pthread_sigmask(SIG_UNBLOCK, &signals, nil)
      state.started(pthread_self())
      var buffer = [UInt8](repeating: 0, count: 8)
      let result = buffer.withUnsafeMutableBytes { raw -> Result<Int, Errno> in
        if retrying { return Result { () throws(Errno) in try readEnd.readSome(into: raw) } }
        return Result { () throws(Errno) in
          try SystemCall.typed { try readEnd.read(into: raw, retryOnInterrupt: false) }
        }
      }
      state.finish(result.map { Array(buffer[..<$0]) })
      // Alive until the test is done sending signals: a signal to an ended thread is lost.
      state.waitForRelease()
    }
    thread.start()
    let reader = state.waitForStart()
    var signals = 0
    var handled = [UInt8](repeating: 0, count: 1)
    defer { state.release() }
    while signals < (signalsBeforeWriting ?? 1000) {
      usleep(10_000)
      pthread_kill(reader, SIGUSR2)
      // The handler writes one byte to its pipe: wait for it, then for the read to return if
      // the signal interrupted it.
      _ = try handled.withUnsafeMutableBytes { raw throws(Errno) in try signalPipe.readEnd.readSome(into: raw) }
      signals += 1
      if state.isFinished(within: .milliseconds(50)) { break }
    }
    if signalsBeforeWriting != nil { try writeEnd.write(all: [0x2A]) }
    return (state.waitForFinish(), signals)
  }
}

/// Where the SIGUSR2 handler reports each signal it handled (`write(2)` is async-signal-safe).
private let signalPipe = try! FileDescriptor.pipe()

private func installHandler() {
  _ = signalPipe  // made before any signal arrives
  var action = sigaction()
  let handler: @convention(c) (Int32) -> Void = { _ in
    let saved = errno
    var byte: UInt8 = 1
    _ = write(signalPipe.writeEnd.rawValue, &byte, 1)
    errno = saved
  }
  #if canImport(Darwin)
    action.__sigaction_u.__sa_handler = handler
  #else
    action.__sigaction_handler.sa_handler = handler
  #endif
  action.sa_flags = 0  // no SA_RESTART: a blocking read fails with EINTR
  sigemptyset(&action.sa_mask)
  sigaction(SIGUSR2, &action, nil)
}

/// The reader thread's identity and result, handed to the test's thread.
private final class ReaderState: @unchecked Sendable {
  private let condition = NSCondition()
  private var thread: pthread_t?
  private var result: Result<[UInt8], Errno>?

  func started(_ thread: pthread_t) {
    condition.withLock {
      self.thread = thread
      condition.broadcast()
    }
  }

  func finish(_ result: Result<[UInt8], Errno>) {
    condition.withLock {
      self.result = result
      condition.broadcast()
    }
  }

  private var released = false

  func release() {
    condition.withLock {
      released = true
      condition.broadcast()
    }
  }

  func waitForRelease() {
    condition.withLock {
      while !released { condition.wait() }
    }
  }

  /// Whether the read has returned, waiting at most `time` for it.
  func isFinished(within time: Duration) -> Bool {
    let deadline = Date().addingTimeInterval(
      Double(time.components.attoseconds) / 1e18 + Double(time.components.seconds))
    return condition.withLock {
      while result == nil && condition.wait(until: deadline) {}
      return result != nil
    }
  }

  func waitForStart() -> pthread_t {
    condition.withLock {
      while thread == nil { condition.wait() }
      return thread!
    }
  }

  func waitForFinish() -> Result<[UInt8], Errno> {
    condition.withLock {
      while result == nil { condition.wait() }
      return result!
    }
  }
}
