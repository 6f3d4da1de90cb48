import Foundation

/// Work that runs on a thread of the global dispatch queue while the caller goes on, and
/// whose result the caller waits for.
///
/// The result is written once, by that thread, before it leaves the dispatch group, and read
/// only after `wait()` returns from the group's wait, so the accesses never overlap (which is
/// what `@unchecked Sendable` promises here; `make tsan` checks it).
final class BackgroundWork<Value: Sendable, Failure: Error>: @unchecked Sendable {
  private let group = DispatchGroup()
  private var result: Result<Value, Failure>?

  /// Starts `work` on another thread.
  init(_ work: @escaping @Sendable () throws(Failure) -> Value) {
    DispatchQueue.global(qos: .userInitiated).async(group: group) { [self] in
      result = Result { () throws(Failure) -> Value in try work() }
    }
  }

  /// Waits for the work to end; returns its value or throws its error.
  ///
  /// The value moves out, so that the caller holds the only reference to its buffers and
  /// can change them without a copy.
  /// - Precondition: called once.
  func wait() throws(Failure) -> Value {
    group.wait()
    // safe: set before the group was left, which the wait above orders before this read.
    guard let result else { preconditionFailure("wait() was called twice") }
    self.result = nil
    return try result.get()
  }
}
