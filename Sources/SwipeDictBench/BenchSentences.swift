import Foundation
import SwipeDecoder
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
import SwipeDictTools

/// `swipedict bench --sentences FILE`: what the previous word buys while typing running text
/// (one sentence or passage per line; words as ``SentenceWords`` splits them).
///
/// For every word of the text that is a word of the blob (matched ignoring case, accents and
/// apostrophes):
/// - **Next word**: whether it is first, or in the top 3, of the predictions after its
///   previous word (``SwipeDictionary/nextWords(after:limit:)``), over the words that have
///   a previous word.
/// - **Keystrokes saved** by a suggestion bar of three words, with and without the previous
///   word: before each letter (and before the first), the bar shows the best three
///   completions of what is typed so far; when the word is among them the user taps it (one
///   keystroke) instead of typing the rest. Saved = 1 − keystrokes ÷ letters, over all words.
/// - **Time** of a completion call with and without the context, each call's median over the
///   passes (every call of the simulation on at most 2,000 words spread over the text).
///
/// A suggestion is the word when it is the same ignoring case and apostrophes, as the
/// decoder's accuracy counts.
struct SentenceBench {
  let dictionary: SwipeDictionary
  let passes: Int

  /// A word of the text as the blob stores it, with its previous word as written.
  struct Word {
    var stored: String
    var previous: String?
  }

  /// Reads the text's words; words the blob lacks are skipped (still the next one's
  /// previous word, as a keyboard would have it).
  static func read(_ path: String, dictionary: SwipeDictionary) throws -> [Word] {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
      throw failure("\(path): cannot read the file\n  hint: give a text file, one sentence or passage per line")
    }
    guard let text = String(validatingUTF8: data) else {
      throw failure("\(path): not UTF-8 text\n  hint: save the file as UTF-8")
    }
    var words: [Word] = []
    for line in text.split(whereSeparator: \.isNewline) {
      for (word, previous) in SentenceWords.split(String(line)) {
        if let stored = LabelMatching.storedWord(for: word, in: dictionary) {
          words.append(Word(stored: stored, previous: previous))
        }
      }
    }
    guard !words.isEmpty else { throw failure("\(path): no word of the blob in the text") }
    return words
  }

  struct Result {
    var lines: [String]
    var json: JSONValue
  }

  /// The bar's size.
  static let barSize = 3

  func run(_ words: [Word], name: String) -> Result {
    var contexts: [String: WordContext] = [:]
    func context(_ previous: String?) -> WordContext {
      guard let previous else { return .empty }
      if let known = contexts[previous] { return known }
      let made = dictionary.context(after: previous)
      contexts[previous] = made
      return made
    }
    // Next word.
    var withPrevious = 0
    var nextFirst = 0
    var nextTop3 = 0
    for word in words {
      guard let previous = word.previous else { continue }
      withPrevious += 1
      let key = variantKey(word.stored)
      let predicted = dictionary.nextWords(after: previous, limit: Self.barSize).map { variantKey($0.word) }
      if predicted.first == key { nextFirst += 1 }
      if predicted.contains(key) { nextTop3 += 1 }
    }
    // Keystrokes, with the bar filled without and with the previous word.
    var letters = 0
    var keystrokes = (plain: 0, context: 0)
    for word in words {
      let scalars = Array(word.stored.unicodeScalars)
      letters += scalars.count
      let key = variantKey(word.stored)
      let wordContext = context(word.previous)
      func cost(_ bar: (String) -> [Suggestion]) -> Int {
        for typed in 0..<scalars.count {
          let prefix = String(String.UnicodeScalarView(scalars[..<typed]))
          if bar(prefix).contains(where: { variantKey($0.word) == key }) { return typed + 1 }
        }
        return scalars.count
      }
      keystrokes.plain += cost { dictionary.completions(prefix: $0, limit: Self.barSize) }
      keystrokes.context += cost { dictionary.completions(prefix: $0, context: wordContext, limit: Self.barSize) }
    }
    // Time: every prefix of up to 2,000 words with a previous word.
    let sampled = words.filter { $0.previous != nil }
    let count = min(2000, sampled.count)
    var calls: [(prefix: String, context: WordContext)] = []
    for i in 0..<count {
      let word = sampled[i * sampled.count / count]
      let scalars = Array(word.stored.unicodeScalars)
      for typed in 0..<scalars.count {
        calls.append((String(String.UnicodeScalarView(scalars[..<typed])), context(word.previous)))
      }
    }
    let plainNs = timeEachCall(calls.count, passes: passes) {
      dictionary.completions(prefix: calls[$0].prefix, limit: Self.barSize).count
    }.sorted()
    let contextNs = timeEachCall(calls.count, passes: passes) {
      dictionary.completions(prefix: calls[$0].prefix, context: calls[$0].context, limit: Self.barSize).count
    }.sorted()

    func percent(_ part: Int, _ whole: Int) -> String {
      "\(fixedDecimal(100 * Double(part) / Double(max(1, whole)), places: 2)) %"
    }
    func interval(_ part: Int, _ whole: Int) -> String {
      let w = wilsonInterval(successes: part, trials: max(1, whole))
      return "\(fixedDecimal(100 * w.low, places: 1))–\(fixedDecimal(100 * w.high, places: 1))"
    }
    let savedPlain = 1 - Double(keystrokes.plain) / Double(max(1, letters))
    let savedContext = 1 - Double(keystrokes.context) / Double(max(1, letters))
    func us(_ sorted: [Double], _ q: Double) -> Double { quantile(sorted, q) / 1000 }
    let lines = [
      "sentences \(name): \(grouped(words.count)) words of the blob, \(grouped(withPrevious)) with a previous word",
      "  next word after the previous one: first \(percent(nextFirst, withPrevious)) (95 % \(interval(nextFirst, withPrevious))), "
        + "top 3 \(percent(nextTop3, withPrevious)) (95 % \(interval(nextTop3, withPrevious)))",
      "  keystrokes saved by a 3-word bar: \(fixedDecimal(100 * savedPlain, places: 2)) % without the previous word, "
        + "\(fixedDecimal(100 * savedContext, places: 2)) % with it (\(grouped(letters)) letters)",
      "  completion, limit 3: median \(fixedDecimal(us(plainNs, 0.5), places: 2)) µs, p99 \(fixedDecimal(us(plainNs, 0.99), places: 2)) µs; "
        + "with the previous word median \(fixedDecimal(us(contextNs, 0.5), places: 2)) µs, "
        + "p99 \(fixedDecimal(us(contextNs, 0.99), places: 2)) µs (\(grouped(calls.count)) calls, median of \(passes) passes each)",
    ]
    let json: JSONValue = .object([
      ("file", .string(name)), ("words", .number(words.count)), ("withPrevious", .number(withPrevious)),
      ("nextTop1", .double(rounded(Double(nextFirst) / Double(max(1, withPrevious)), places: 4))),
      ("nextTop3", .double(rounded(Double(nextTop3) / Double(max(1, withPrevious)), places: 4))),
      ("letters", .number(letters)),
      ("keystrokesSaved", .double(rounded(savedPlain, places: 4))),
      ("keystrokesSavedInContext", .double(rounded(savedContext, places: 4))),
      ("completionMedianUs", .double(rounded(us(plainNs, 0.5), places: 3))),
      ("completionP99Us", .double(rounded(us(plainNs, 0.99), places: 3))),
      ("completionInContextMedianUs", .double(rounded(us(contextNs, 0.5), places: 3))),
      ("completionInContextP99Us", .double(rounded(us(contextNs, 0.99), places: 3))),
      ("timedCalls", .number(calls.count)),
    ])
    return Result(lines: lines, json: json)
  }
}
