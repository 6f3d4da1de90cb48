import ArgumentParser
import Foundation
import SwipeDict
import SwipeDictCommandLine
import SwipeDictSystem
import SwipeDictTools

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `swipedict user FILE bench`: the figures docs/user-dictionary.md compares with SQLite
/// (bench/user-store/run.sh runs both).
struct UserBenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure a user dictionary: open, write, refresh, size, compaction.",
    discussion: """
      Creates FILE (which must not exist) with --entries words (word00000, word00001, …), \
      then measures: open and load (a new store reading the file), one acknowledged write \
      (learn: one more use of an existing word; also with an fsync per write), a reader's \
      refresh after one write of another store, the file's size compacted and at the \
      compaction threshold, and a compaction. Medians over the runs (nearest rank). FILE \
      is removed at the end. bench/user-store/run.sh compares these with SQLite.

      Examples:
        swipedict user /tmp/bench.words bench
        swipedict user /tmp/bench.words bench --entries 20000 --writes 5000
      """,
    shouldDisplay: false)

  @ParentCommand var user: UserCommand

  @Option(parsing: .unconditional, help: "How many entries.")
  var entries: Int = 20_000

  @Option(parsing: .unconditional, help: "How many writes to time (a tenth of them with fsync).")
  var writes: Int = 2_000

  func validate() throws {
    try checkRange("--entries", entries, in: 1...1_000_000)
    try checkRange("--writes", writes, in: 10...1_000_000)
  }

  func run() throws {
    guard !FileManager.default.fileExists(atPath: user.file) else {
      throw failure("\(user.file): exists; the benchmark creates its file\n  hint: give a path that does not exist")
    }
    defer { try? FileSystem.remove(user.file) }
    do { try measure() } catch { throw failure(error) }
  }

  private func measure() throws(UserDictionaryError) {
    let words = (0..<entries).map { "word" + String(repeating: "0", count: max(0, 5 - String($0).count)) + String($0) }
    let writer = try UserDictionary(
      path: user.file, options: .init(capacity: max(entries, UserDictionary.defaultCapacity)))
    try writer.importList(UserWordList(items: words.map { .init(word: $0, kind: .learned, uses: 1) }))
    let compactedSize = fileSize(user.file)

    var openTimes: [Double] = []
    for _ in 0..<21 {
      let started = seconds()
      let store = try UserDictionary(path: user.file)
      let count = store.words.count
      openTimes.append(seconds() - started)
      precondition(count == entries)
    }

    let reader = try UserDictionary(path: user.file)
    var generator = SystemRandomNumberGenerator()
    var writeTimes: [Double] = []
    var refreshTimes: [Double] = []
    for _ in 0..<writes {
      let word = words[Int.random(in: 0..<words.count, using: &generator)]
      let started = seconds()
      try writer.learn(word)
      writeTimes.append(seconds() - started)
      let refreshStarted = seconds()
      try reader.refresh()
      refreshTimes.append(seconds() - refreshStarted)
      _ = reader.words.entry(for: word)
    }
    let synchronous = try UserDictionary(path: user.file, options: .init(synchronizesEachWrite: true))
    var syncTimes: [Double] = []
    for _ in 0..<max(10, writes / 10) {
      let word = words[Int.random(in: 0..<words.count, using: &generator)]
      let started = seconds()
      try synchronous.learn(word)
      syncTimes.append(seconds() - started)
    }
    // Grow the log to just below the compaction threshold: the largest file a reader opens.
    let quiet = try UserDictionary(path: user.file, options: .init(compactsAutomatically: false))
    try quiet.compact()
    let threshold = 2 * (compactedSize - 32) + 65_536 + 32
    var index = 0
    while fileSize(user.file) + 40 < threshold {
      try quiet.learn(words[index % words.count])
      index += 1
    }
    let largestSize = fileSize(user.file)
    var largeOpenTimes: [Double] = []
    for _ in 0..<11 {
      let started = seconds()
      let store = try UserDictionary(path: user.file)
      _ = store.words.count
      largeOpenTimes.append(seconds() - started)
    }
    var compactTimes: [Double] = []
    for _ in 0..<11 {
      let started = seconds()
      try quiet.compact()
      compactTimes.append(seconds() - started)
    }
    func median(_ values: [Double]) -> String {
      let sorted = values.sorted()
      return microseconds(sorted[(sorted.count - 1) / 2])
    }
    func p99(_ values: [Double]) -> String {
      let sorted = values.sorted()
      return microseconds(sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))])
    }
    print(
      """
      store                         log (SwipeDict UserDictionary)
      entries                       \(grouped(entries))
      open + load, compacted        \(median(openTimes)) (median of \(openTimes.count))
      open + load, before compaction \(median(largeOpenTimes)) (\(grouped(largestSize)) bytes, median of \(largeOpenTimes.count))
      one write acknowledged        \(median(writeTimes)) median, \(p99(writeTimes)) p99 (\(grouped(writeTimes.count)) writes)
      one write, fsync each         \(median(syncTimes)) median, \(p99(syncTimes)) p99 (\(grouped(syncTimes.count)) writes)
      reader refresh after a write  \(median(refreshTimes)) median, \(p99(refreshTimes)) p99
      file size, compacted          \(grouped(compactedSize)) bytes (\(fixedDecimal(Double(compactedSize) / Double(entries), places: 1)) per entry)
      file size, largest            \(grouped(largestSize)) bytes (then it is compacted)
      compaction                    \(median(compactTimes)) (median of \(compactTimes.count), with its fsync)
      """)
  }
}

private func seconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

private func microseconds(_ value: Double) -> String {
  value >= 1e-3 ? "\(fixedDecimal(value * 1e3, places: 2)) ms" : "\(fixedDecimal(value * 1e6, places: 1)) µs"
}

private func fileSize(_ path: String) -> Int {
  (try? FileSystem.status(of: path)).map { Int($0.size) } ?? 0
}
