import Dispatch
import Foundation

/// The server's open connections, each with the deadline of what it waits for, and the one
/// watchdog that enforces every deadline: no task or timer per read.
///
/// A connection sets its deadline as it moves on (waiting for a request, reading a head or
/// a body, writing an answer). About every ``tick`` the watchdog, on a Dispatch queue of its
/// own (so that it runs even while every task thread is busy), shuts down the socket of each
/// connection past its deadline: `shutdown(SHUT_RD)` while a request is being read, so that
/// the suspended read wakes up (it reads the end of the stream) and the connection can still
/// answer 408; `shutdown(SHUT_RDWR)` otherwise. It never closes a socket that a task may
/// still use: a connection's own task hands its socket back with ``release(_:)``, and the
/// watchdog closes it two ticks later, once the socket pool has certainly let go of it (the
/// pool removes a socket from epoll just after it resumes the task that waited on it; a
/// socket closed before that would leave the pool a stale entry for the next socket given
/// the same number).
final class ConnectionTable: @unchecked Sendable {
  /// What a deadline shuts down.
  enum Expiry {
    /// The reading side: a request is being read, and the connection answers 408.
    case reading
    /// Both sides: the connection is idle, writing or lingering, and it is closed.
    case everything
  }

  private struct Entry {
    var deadline: ContinuousClock.Instant?
    var expiry = Expiry.everything
    /// Sticky: once expired, the connection ends after what it is doing.
    var expired = false
  }

  /// The most connections at once.
  let capacity: Int
  /// How often the watchdog looks.
  let tick: Duration
  private let lock = NSLock()
  private var entries: [Int32: Entry] = [:]
  private var stopping = false
  private var released: [Int32] = []
  private var releasedBefore: [Int32] = []
  private var timer: (any DispatchSourceTimer)?

  /// A table of at most `capacity` connections whose watchdog looks every `tick`.
  init(capacity: Int, tick: Duration) {
    self.capacity = capacity
    self.tick = tick
  }

  /// Whether ``stop()`` was called.
  var isStopping: Bool { locked { stopping } }

  /// How many connections are open.
  var count: Int { locked { entries.count } }

  /// Adds the connection on `fd`, or refuses it when the table is full or stopping.
  func admit(_ fd: Int32) -> Bool {
    locked {
      guard !stopping, entries.count < capacity else { return false }
      entries[fd] = Entry()
      return true
    }
  }

  /// Sets the deadline of the connection on `fd` (`nil`: none).
  /// - Returns: whether the connection is still live (not expired, the server not stopping).
  @discardableResult
  func setDeadline(_ fd: Int32, _ deadline: ContinuousClock.Instant?, _ expiry: Expiry = .everything) -> Bool {
    locked {
      entries[fd]?.deadline = deadline
      entries[fd]?.expiry = expiry
      return entries[fd].map { !$0.expired } ?? false
    }
  }

  /// Whether the connection on `fd` is still live (not past a deadline, not stopped).
  func isLive(_ fd: Int32) -> Bool {
    locked { entries[fd].map { !$0.expired } ?? false }
  }

  /// Removes the connection on `fd`, shuts its socket down, and closes it two ticks later.
  func release(_ fd: Int32) {
    locked {
      guard entries.removeValue(forKey: fd) != nil else { return }
      SocketCalls.shutdown(fd, read: true, write: true)
      if timer == nil {
        SocketCalls.close(fd)
      } else {
        released.append(fd)
      }
    }
  }

  /// Starts the watchdog.
  func startWatchdog() {
    let queue = DispatchQueue(label: "swipedict.serve.watchdog")
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let interval = DispatchTimeInterval.nanoseconds(
      Int(tick.components.seconds) * 1_000_000_000 + Int(tick.components.attoseconds / 1_000_000_000))
    timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(1))
    timer.setEventHandler { [weak self] in self?.enforceDeadlines() }
    locked { self.timer = timer }
    timer.resume()
  }

  /// Refuses new connections and shuts down every open one.
  func stop() {
    locked {
      stopping = true
      for (fd, var entry) in entries {
        SocketCalls.shutdown(fd, read: true, write: true)
        entry.expired = true
        entry.deadline = nil
        entries[fd] = entry
      }
    }
  }

  /// Stops the watchdog and closes the released sockets: once the socket pool has stopped.
  func finish() {
    let closing: [Int32] = locked {
      timer?.cancel()
      timer = nil
      defer {
        released = []
        releasedBefore = []
      }
      return released + releasedBefore
    }
    for fd in closing { SocketCalls.close(fd) }
  }

  /// One look of the watchdog.
  private func enforceDeadlines() {
    let now = ContinuousClock.now
    locked {
      for (fd, var entry) in entries {
        guard let deadline = entry.deadline, deadline <= now else { continue }
        SocketCalls.shutdown(fd, read: true, write: entry.expiry == .everything)
        entry.expired = true
        entry.deadline = nil
        entries[fd] = entry
      }
      for fd in releasedBefore { SocketCalls.close(fd) }
      releasedBefore = released
      released = []
    }
  }

  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
