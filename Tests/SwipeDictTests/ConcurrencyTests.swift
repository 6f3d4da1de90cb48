import Dispatch
import Foundation
import SwipeDict
import Testing

/// One `SwipeDictionary` shared by 8 threads gives the same answers as one thread. Run it
/// under ThreadSanitizer with `make tsan`.
@Suite("Sharing a dictionary between threads")
struct ConcurrencyTests {
  /// How long the threads hammer the dictionary: a second by default, longer with
  /// SWIPEDICT_CONCURRENCY_SECONDS (the soak is 10 s).
  static let seconds: Double = {
    Double(ProcessInfo.processInfo.environment["SWIPEDICT_CONCURRENCY_SECONDS"] ?? "") ?? 1
  }()

  @Test func eightThreadsAgreeWithOne() throws {
    let words = randomWords(count: 3000, seed: 77)
    let (dictionary, _) = try openDictionary(words, verify: false)
    let probes = words + randomWords(count: 500, seed: 78)
    // The answers of one thread.
    @Sendable func answers(_ d: SwipeDictionary) -> [Int] {
      var out: [Int] = []
      for word in probes {
        out.append(d.id(of: word) ?? -1)
        out.append(d.ids(matchingFolded: word).count)
      }
      for id in stride(from: 0, to: d.wordCount, by: 7) { out.append(d.word(for: id)?.utf8.count ?? -1) }
      out.append(d.words(withPrefix: "a").reduce(0) { $0 &+ $1.id })
      return out
    }
    let expected = answers(dictionary)
    let deadline = Date().addingTimeInterval(Self.seconds)
    let mismatches = Mismatches()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      repeat {
        if answers(dictionary) != expected { mismatches.record() }
      } while Date() < deadline
    }
    #expect(mismatches.count == 0)
  }
}

/// A thread-safe counter.
final class Mismatches: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func record() {
    lock.lock()
    value += 1
    lock.unlock()
  }
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
}
