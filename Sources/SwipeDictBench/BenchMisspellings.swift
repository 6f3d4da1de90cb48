import Foundation
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
import SwipeDictTools

/// `swipedict bench --misspellings FILE`: how often the corrector puts the intended word first
/// and in its top 3 on real misspellings (`typed<TAB>intended` per line), and how long a call
/// takes.
///
/// A suggestion counts as the intended word when it is the same ignoring case (the public
/// lists are lowercase, the blob keeps capitals). Rates are also given apart for the pairs
/// whose typed word is itself a word of the blob (wordfreq's lists hold common misspellings),
/// where only a corrector that looks past an exact match can succeed. Timing: every call on
/// at most 2,000 pairs spread evenly over the file, each call's median over the passes.
/// Fields are trimmed of spaces; a UTF-8 byte order mark is skipped.
struct MisspellingBench {
  let dictionary: SwipeDictionary
  let model: CorrectionModel
  let passes: Int

  struct Pair {
    var typed: String
    var intended: String
  }

  /// Reads `typed<TAB>intended` lines; `#` comments and blank lines are skipped.
  static func read(_ path: String) throws -> [Pair] {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
      throw failure("\(path): cannot read the file\n  hint: give a TSV file of `typed<TAB>intended` pairs")
    }
    var bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // a UTF-8 byte order mark
    var pairs: [Pair] = []
    for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
      let text = String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...], as: UTF8.self)
      if text.isEmpty || text.hasPrefix("#") { continue }
      let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard fields.count >= 2, !fields[0].isEmpty, !fields[1].isEmpty else {
        throw failure(
          "\(path):\(index + 1): expected a typed word and the intended word separated by a tab\n"
            + "  hint: one pair per line, `typed<TAB>intended`; lines starting with # are comments")
      }
      pairs.append(Pair(typed: String(fields[0]), intended: String(fields[1])))
    }
    guard !pairs.isEmpty else { throw failure("\(path): no misspelling pairs") }
    return pairs
  }

  struct Result {
    var lines: [String]
    var json: JSONValue
  }

  func run(_ pairs: [Pair], name: String) -> Result {
    let corrector = dictionary.makeCorrector(model: model)
    var ranks: [Int?] = []
    var typedIsWord: [Bool] = []
    var intendedIsWord = 0
    for pair in pairs {
      let intended = pair.intended.lowercased()
      let found = corrector.corrections(for: pair.typed, limit: 10)
      ranks.append(found.firstIndex { $0.word.lowercased() == intended })
      typedIsWord.append(!dictionary.ids(matchingFolded: pair.typed, limit: 1).isEmpty)
      if !dictionary.ids(matchingFolded: pair.intended, limit: 1).isEmpty { intendedIsWord += 1 }
    }
    let timedCount = min(2000, pairs.count)
    let timed = (0..<timedCount).map { $0 * pairs.count / timedCount }
    let ns = timeEachCall(timed.count, passes: passes) { i in
      corrector.corrections(for: pairs[timed[i]].typed, limit: 10).count
    }
    let sorted = ns.sorted()

    func rates(_ indices: [Int]) -> (first: Double, top3: Double, count: Int) {
      let n = Double(max(1, indices.count))
      return (
        Double(indices.filter { ranks[$0] == 0 }.count) / n, Double(indices.filter { (ranks[$0] ?? 99) < 3 }.count) / n,
        indices.count
      )
    }
    let all = rates(Array(pairs.indices))
    let words = rates(pairs.indices.filter { typedIsWord[$0] })
    let others = rates(pairs.indices.filter { !typedIsWord[$0] })
    func percent(_ value: Double) -> String { "\(fixedDecimal(100 * value, places: 2)) %" }
    let interval = wilsonInterval(successes: Int((all.first * Double(all.count)).rounded()), trials: all.count)
    let median = quantile(sorted, 0.5) / 1000
    let p99 = quantile(sorted, 0.99) / 1000
    let lines = [
      "misspellings \(name): \(grouped(pairs.count)) pairs (intended word in the blob: "
        + "\(percent(Double(intendedIsWord) / Double(pairs.count))))",
      "  intended word first \(percent(all.first)) (95 % \(percent(interval.low))–\(percent(interval.high))), "
        + "in the top 3 \(percent(all.top3))",
      "  typed word not in the blob (\(grouped(others.count))): first \(percent(others.first)), top 3 \(percent(others.top3))",
      "  typed word in the blob (\(grouped(words.count))): first \(percent(words.first)), top 3 \(percent(words.top3))",
      "  correction, limit 10: median \(fixedDecimal(median, places: 2)) µs, p99 \(fixedDecimal(p99, places: 2)) µs "
        + "(\(grouped(timed.count)) calls, median of \(passes) passes each)",
    ]
    func object(_ r: (first: Double, top3: Double, count: Int)) -> JSONValue {
      .object([
        ("pairs", .number(r.count)), ("top1", .double(rounded(r.first, places: 4))),
        ("top3", .double(rounded(r.top3, places: 4))),
      ])
    }
    let json: JSONValue = .object([
      ("file", .string(name)), ("pairs", .number(pairs.count)), ("intendedInBlob", .number(intendedIsWord)),
      ("top1", .double(rounded(all.first, places: 4))), ("top3", .double(rounded(all.top3, places: 4))),
      ("top1Low", .double(rounded(interval.low, places: 4))), ("top1High", .double(rounded(interval.high, places: 4))),
      ("typedNotInBlob", object(others)), ("typedInBlob", object(words)),
      ("medianUs", .double(rounded(median, places: 3))), ("p99Us", .double(rounded(p99, places: 3))),
      ("timedCalls", .number(timed.count)),
    ])
    return Result(lines: lines, json: json)
  }
}
