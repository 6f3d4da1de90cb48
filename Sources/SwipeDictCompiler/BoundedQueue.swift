import Foundation

/// A first-in, first-out queue between a producing thread and a consuming one that holds at
/// most `capacity` elements: ``send(_:)`` waits while it is full, ``next()`` while it is
/// empty. It hands a build's parsed entries from the thread that reads the lists to the one
/// that counts them.
///
/// Every access to the elements and the closed flag is under the condition's lock, which is
/// what `@unchecked Sendable` promises here (`make tsan` checks it).
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var elements: [Element] = []
  private var closed = false
  private let capacity: Int

  /// A queue that holds at most `capacity` elements (at least 1).
  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// Adds `element` at the end, waiting while the queue is full. After ``close()`` the
  /// element is dropped.
  func send(_ element: Element) {
    condition.lock()
    defer { condition.unlock() }
    while elements.count >= capacity && !closed { condition.wait() }
    guard !closed else { return }
    elements.append(element)
    condition.broadcast()
  }

  /// Ends the queue: ``next()`` returns what is left, then `nil`.
  func close() {
    condition.lock()
    defer { condition.unlock() }
    closed = true
    condition.broadcast()
  }

  /// The first element, waiting while the queue is empty and open; `nil` once it is
  /// closed and empty.
  func next() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while elements.isEmpty && !closed { condition.wait() }
    guard !elements.isEmpty else { return nil }
    condition.broadcast()
    return elements.removeFirst()
  }
}
