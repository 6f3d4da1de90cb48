import Foundation

/// The executor the server's tasks prefer: a few threads of the server's own, rather than
/// Swift's cooperative pool.
///
/// The cooperative pool has one thread per core and is shared by everything in the process,
/// and on Linux Dispatch's global and concurrent queues share its threads too. While other
/// work holds all of them (a test runner's other suites, decodings sent to a global queue),
/// a server on them could not accept, read or answer anything. Here the accept loop, every
/// connection's task and the socket pool's actor (a default actor runs on the executor its
/// caller's task prefers) run on `threads` threads that nothing else uses, taking jobs in
/// the order they come.
///
/// ``shutDown()`` lets the threads end once no job is left; a job that still comes after
/// that runs on a thread of its own.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
final class ServerExecutor: TaskExecutor, @unchecked Sendable {
  private let condition = NSCondition()
  /// The jobs to run: `outgoing` popped from its end, `incoming` appended to, turned over
  /// when `outgoing` is empty (first in, first out, O(1) amortized).
  private var incoming: [UnownedJob] = []
  private var outgoing: [UnownedJob] = []
  private var isShutDown = false

  /// An executor of `threads` threads (started at once).
  init(threads: Int) {
    for index in 0..<max(1, threads) {
      let thread = Thread { [self] in work() }
      thread.name = "swipedict.serve.\(index)"
      thread.start()
    }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    if isShutDown {
      condition.unlock()
      let executor = asUnownedTaskExecutor()
      Thread.detachNewThread { job.runSynchronously(on: executor) }
      return
    }
    incoming.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Lets the threads end once the jobs already queued have run.
  func shutDown() {
    condition.lock()
    isShutDown = true
    condition.broadcast()
    condition.unlock()
  }

  private func work() {
    let executor = asUnownedTaskExecutor()
    while let job = next() {
      job.runSynchronously(on: executor)
    }
  }

  /// The next job, waiting for one; `nil` once shut down with none left.
  private func next() -> UnownedJob? {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let job = outgoing.popLast() { return job }
      if !incoming.isEmpty {
        outgoing = incoming.reversed()
        incoming.removeAll(keepingCapacity: true)
        continue
      }
      if isShutDown { return nil }
      condition.wait()
    }
  }
}
