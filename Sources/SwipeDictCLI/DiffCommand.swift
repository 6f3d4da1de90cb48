import ArgumentParser
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
import SwipeDictTools

/// `swipedict diff A B`: the words added, removed and re-ranked between two blobs.
struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Show the words added, removed and re-ranked between two blobs.",
    discussion: """
      Compares the words of blob A with those of blob B (exact spelling, after NFC) and \
      their frequency bytes. Prints a summary line, then the added words (+), the removed \
      ones (-) and those whose frequency byte changed (~, A's → B's), each list most \
      frequent first and cut to --limit (0: all). --json prints one JSON object instead. \
      Layouts are not compared (`swipedict inspect` shows them).

      Exit status, as diff's for scripts: 0 when the blobs hold the same words with the \
      same frequencies, 3 when they differ, 1 on an error, 64 on a usage error.

      Examples:
        swipedict diff old.swipedict build/en.swipedict
        swipedict diff build/en.swipedict en-aosp.swipedict --limit 0 --json
      """)

  @Argument(help: "The first blob (A).")
  var first: String

  @Argument(help: "The second blob (B).")
  var second: String

  @Option(
    name: .long, parsing: .unconditional,
    help: "The most words each list prints (0: all; at most 10,000,000).")
  var limit: Int = 20

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  func validate() throws {
    try checkRange("--limit", limit, in: 0...10_000_000)
  }

  /// A word that differs, with its frequency bytes in A and B (nil where it is missing).
  struct Change {
    var word: String
    var before: UInt8?
    var after: UInt8?
  }

  func run() throws {
    func open(_ path: String) throws -> SwipeDictionary {
      do { return try SwipeDictionary(contentsOf: path) } catch { throw failure(error, file: path) }
    }
    let a = try open(first)
    let b = try open(second)
    var inA: [String: UInt8] = [:]
    inA.reserveCapacity(a.wordCount)
    for id in 0..<a.wordCount {
      if let word = a.word(for: id) { inA[word] = a.frequency(of: id) ?? 0 }
    }
    var added: [Change] = []
    var changed: [Change] = []
    for id in 0..<b.wordCount {
      guard let word = b.word(for: id) else { continue }
      let after = b.frequency(of: id) ?? 0
      if let before = inA.removeValue(forKey: word) {
        if before != after { changed.append(Change(word: word, before: before, after: after)) }
      } else {
        added.append(Change(word: word, before: nil, after: after))
      }
    }
    var removed = inA.map { Change(word: $0.key, before: $0.value, after: nil) }
    // Most frequent first, then by word, so the output is the same on every run.
    func order(_ x: Change, _ y: Change) -> Bool {
      let fx = max(x.before ?? 0, x.after ?? 0)
      let fy = max(y.before ?? 0, y.after ?? 0)
      return fx != fy ? fx > fy : x.word.unicodeScalars.lexicographicallyPrecedes(y.word.unicodeScalars)
    }
    added.sort(by: order)
    removed.sort(by: order)
    changed.sort(by: order)
    let up = changed.filter { ($0.after ?? 0) > ($0.before ?? 0) }.count
    let shown = { (list: [Change]) in self.limit == 0 ? list[...] : list.prefix(self.limit) }
    if json {
      func items(_ list: [Change]) -> JSONValue {
        .array(
          shown(list).map { change in
            var fields: [(String, JSONValue)] = [("word", .string(change.word))]
            if let before = change.before { fields.append(("before", .number(Int(before)))) }
            if let after = change.after { fields.append(("after", .number(Int(after)))) }
            return .object(fields)
          })
      }
      print(
        JSONValue.object([
          ("a", .object([("blob", .string(first)), ("words", .number(a.wordCount))])),
          ("b", .object([("blob", .string(second)), ("words", .number(b.wordCount))])),
          ("added", .number(added.count)), ("removed", .number(removed.count)),
          ("changed", .number(changed.count)), ("up", .number(up)), ("down", .number(changed.count - up)),
          ("addedWords", items(added)), ("removedWords", items(removed)), ("changedWords", items(changed)),
        ]).text)
    } else {
      print(
        "A \(first): \(grouped(a.wordCount)) words; B \(second): \(grouped(b.wordCount)) words; "
          + "\(grouped(added.count)) added, \(grouped(removed.count)) removed, "
          + "\(grouped(changed.count)) with another frequency (\(grouped(up)) up, \(grouped(changed.count - up)) down)")
      for change in shown(added) { print("+ \(change.word)\tfrequency \(change.after ?? 0)") }
      for change in shown(removed) { print("- \(change.word)\tfrequency \(change.before ?? 0)") }
      for change in shown(changed) { print("~ \(change.word)\tfrequency \(change.before ?? 0) → \(change.after ?? 0)") }
    }
    if !(added.isEmpty && removed.isEmpty && changed.isEmpty) { throw QueryCommand.notFound }
  }
}
