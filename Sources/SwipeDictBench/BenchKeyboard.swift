import Foundation
import SwipeDecoder
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTools

/// `swipedict bench --keyboard`: per-call latency of the queries a keyboard makes after
/// each keystroke or swipe (completion, correction, swipe filter), on deterministic samples
/// drawn from the blob itself, and the quality figures beside them (how often the correction
/// puts the intended word first, how often the filter keeps the swiped word).
///
/// Samples (all from `seed`; words drawn with replacement in proportion to their counts, as
/// in running text):
/// - completion: every prefix (1, 2, … letters, up to the whole word) of each drawn word, in
///   typing order, as the word is stored (case kept); so one- and two-letter prefixes of
///   common words dominate, as they do when people type;
/// - correction: drawn words of at least 3 letters, typed unchanged or with one typo each:
///   an adjacent-key substitution, an omitted letter, an extra letter (an adjacent key of a
///   neighboring letter), or two neighboring letters swapped; a typo that spells a word of
///   the dictionary (ignoring case and accents) is drawn again;
/// - filter: a synthetic swipe over each drawn word (`SwipeSynthesizer` with `swipeNoise` as
///   its aim noise, the model `swipedict synth` uses); the filter is
///   `SwipeFilter(path:keyWidth:)` of its points, with all four filters on.
///
/// Timing: one warm-up pass over the sample, then `passes` passes in which each call is timed
/// on its own (`clock_gettime(CLOCK_MONOTONIC)` before and after); a call's figure is its
/// median over the passes, and the reported median and p99 are over the calls.
struct KeyboardBench {
  let dictionary: SwipeDictionary
  let passes: Int
  let seed: UInt64
  /// Words drawn for the completion prefixes.
  let completionWords: Int
  /// Typed words per kind (4 typo kinds and unchanged).
  let typosPerKind: Int
  /// Swipes for the filter.
  let swipes: Int
  /// σ of the aim around each key center, in key widths.
  let swipeNoise: Double
  /// The correction model and costs.
  var correction: CorrectionModel = .typing()

  struct CompletionQuery {
    var prefix: String
    var folded: String
    var letters: Int
    /// Whether the blob reads the prefix by its folding classes alone (no "ss", "ae" or
    /// "oe" also read as ß, æ or œ), so that the peers' folded completion answers the same.
    var plain: Bool
  }

  struct TypedWord {
    var kind: TypoKind
    var intended: Int
    var word: String
    var typed: String
  }

  enum TypoKind: String, CaseIterable {
    case substitution, omission, insertion, transposition, unchanged
  }

  struct SwipeQuery {
    var id: Int
    var word: String
    var points: [LayoutPoint]
    var filter: SwipeFilter
  }

  // MARK: - Samples

  func completionQueries(_ sampler: WordSampler) -> [CompletionQuery] {
    var generator = SeededGenerator(state: seed ^ 0xC0)
    var queries: [CompletionQuery] = []
    for _ in 0..<completionWords {
      let id = sampler.draw(using: &generator)
      guard let word = dictionary.word(for: id) else { continue }
      var prefix = ""
      for (i, c) in word.prefix(24).enumerated() {
        prefix.append(c)
        queries.append(
          CompletionQuery(
            prefix: prefix, folded: folded(prefix), letters: i + 1,
            plain: !dictionary.readsLettersTypedAsTwo(in: prefix)))
      }
    }
    return queries
  }

  func typedWords(_ sampler: WordSampler) -> [TypedWord] {
    var generator = SeededGenerator(state: seed ^ 0x7C)
    let layout = dictionary.layout
    let neighbors = layout.keys.indices.map { layout.neighbors(of: $0) }
    var out: [TypedWord] = []
    for kind in TypoKind.allCases {
      var made = 0
      var draws = 0
      while made < typosPerKind && draws < 50 * typosPerKind + 100 {
        draws += 1
        let id = sampler.draw(using: &generator)
        guard let word = dictionary.word(for: id) else { continue }
        let chars = Array(word)
        let keys = chars.map { c -> Int? in
          c.unicodeScalars.count == 1 ? layout.key(for: c.unicodeScalars.first!) : nil
        }
        guard chars.count >= 3, keys.allSatisfy({ $0 != nil }) else { continue }
        if kind == .unchanged {
          out.append(TypedWord(kind: kind, intended: id, word: word, typed: word))
          made += 1
          continue
        }
        for _ in 0..<8 {
          guard let typed = typo(kind, chars, keys, neighbors, &generator), typed != word else {
            continue
          }
          if !dictionary.ids(matchingFolded: typed, limit: 1).isEmpty { continue }
          out.append(TypedWord(kind: kind, intended: id, word: word, typed: typed))
          made += 1
          break
        }
      }
    }
    return out
  }

  private func typo(
    _ kind: TypoKind, _ chars: [Character], _ keys: [Int?], _ neighbors: [[Int]],
    _ generator: inout SeededGenerator
  ) -> String? {
    let layout = dictionary.layout
    func near(_ i: Int) -> Character? {
      guard let k = keys[i], let n = neighbors[k].randomElement(using: &generator) else {
        return nil
      }
      let c = Character(layout.keys[n].character)
      return chars[i].isUppercase ? Character(String(c).uppercased()) : c
    }
    var out = chars
    switch kind {
    case .substitution:
      let i = Int(generator.next() % UInt64(chars.count))
      guard let c = near(i) else { return nil }
      out[i] = c
    case .omission:
      out.remove(at: Int(generator.next() % UInt64(chars.count)))
    case .insertion:
      let i = Int(generator.next() % UInt64(chars.count + 1))
      let from = i == 0 ? 0 : i == chars.count ? i - 1 : i - 1 + Int(generator.next() % 2)
      guard let c = near(from) else { return nil }
      out.insert(c, at: i)
    case .transposition:
      let i = Int(generator.next() % UInt64(chars.count - 1))
      guard chars[i] != chars[i + 1] else { return nil }
      out.swapAt(i, i + 1)
    case .unchanged:
      break
    }
    return String(out)
  }

  func swipeQueries(_ sampler: WordSampler) -> [SwipeQuery] {
    var generator = SeededGenerator(state: seed ^ 0x5E)
    let synthesizer = SwipeSynthesizer(layout: dictionary.layout, noise: swipeNoise)
    let width = dictionary.keyWidth
    var out: [SwipeQuery] = []
    var draws = 0
    while out.count < swipes && draws < 10 * swipes + 100 {
      draws += 1
      let id = sampler.draw(using: &generator)
      guard let word = dictionary.word(for: id),
        let swipe = try? synthesizer.swipe(for: word, seed: generator.next())
      else {
        continue
      }
      let points = swipe.points.map { LayoutPoint(x: $0.x, y: $0.y) }
      out.append(
        SwipeQuery(
          id: id, word: word, points: points, filter: SwipeFilter(path: points, keyWidth: width)))
    }
    return out
  }

  /// The folded form the completion compares: each character's folding class (lowercase,
  /// accents removed, as the blob's alphabet defines it).
  func folded(_ text: String) -> String {
    let alphabet = dictionary.alphabet
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let range = alphabet.foldingLabels(for: scalar)
      out.append(
        range.isEmpty ? KeyboardLayout.lowercase(scalar) : alphabet.folds[range.lowerBound])
    }
    return String(out)
  }

  // MARK: - Runs

  /// The figures as JSON, and as lines for people.
  struct Result {
    var json: JSONValue
    var lines: [String]
  }

  /// - Parameters:
  ///   - samplesDirectory: where to write the sample files, if anywhere.
  ///   - inputs: files that must not be overwritten by a sample file (the blob, the query
  ///     files).
  func run(samplesDirectory: String?, protecting inputs: [String] = []) throws -> Result {
    let sampler = WordSampler(dictionary: dictionary, weighting: .frequency)
    let prefixes = completionQueries(sampler)
    let typed = typedWords(sampler)
    let swipeSample = swipeQueries(sampler)
    if let samplesDirectory {
      try writeSamples(samplesDirectory, prefixes, typed, swipeSample, protecting: inputs)
    }
    let overhead = timerOverheadNs()

    // Completion.
    var completionResults = 0
    var completionFrequencies = 0
    var plainResults = 0
    var plainFrequencies = 0
    for q in prefixes {
      for s in dictionary.completions(prefix: q.prefix, limit: 10) {
        completionResults += 1
        completionFrequencies += Int(s.frequency)
        if q.plain {
          plainResults += 1
          plainFrequencies += Int(s.frequency)
        }
      }
    }
    let completionNs = timeCalls(prefixes.count) { i in
      dictionary.completions(prefix: prefixes[i].prefix, limit: 10).count
    }
    var byLength: [JSONValue] = []
    for (label, range) in [("1", 1...1), ("2", 2...2), ("3", 3...3), ("4+", 4...Int.max)] {
      let times = prefixes.indices.filter { range.contains(prefixes[$0].letters) }.map {
        completionNs[$0]
      }
      byLength.append(
        .object([("letters", .string(label)), ("queries", .number(times.count))] + stats(times)))
    }

    // Correction, through one reusable corrector.
    let corrector = dictionary.makeCorrector(model: correction)
    var ranks: [Int?] = []
    for t in typed {
      let found = corrector.corrections(for: t.typed, limit: 10)
      ranks.append(found.firstIndex { $0.id == t.intended })
    }
    let correctionNs = timeCalls(typed.count) { i in
      corrector.corrections(for: typed[i].typed, limit: 10).count
    }
    func quality(_ indices: [Int]) -> [(String, JSONValue)] {
      let n = Double(max(1, indices.count))
      let top1 = indices.filter { ranks[$0] == 0 }.count
      let top3 = indices.filter { (ranks[$0] ?? 99) < 3 }.count
      let top10 = indices.filter { ranks[$0] != nil }.count
      return [
        ("top1", .double(rounded(Double(top1) / n, places: 4))),
        ("top3", .double(rounded(Double(top3) / n, places: 4))),
        ("top10", .double(rounded(Double(top10) / n, places: 4))),
      ]
    }
    var byKind: [JSONValue] = []
    for kind in TypoKind.allCases {
      let indices = typed.indices.filter { typed[$0].kind == kind }
      byKind.append(
        .object(
          [("kind", .string(kind.rawValue)), ("queries", .number(indices.count))]
            + stats(indices.map { correctionNs[$0] }) + quality(indices)))
    }

    // Swipe filter.
    var candidateCounts: [Double] = []
    var kept = 0
    for s in swipeSample {
      let ids = dictionary.candidates(for: s.filter)
      candidateCounts.append(Double(ids.count))
      if ids.contains(s.id) { kept += 1 }
    }
    let filterNs = timeCalls(swipeSample.count) { i in
      dictionary.candidates(for: swipeSample[i].filter).count
    }
    let sortedCounts = candidateCounts.sorted()

    func us(_ ns: [Double]) -> String {
      let sorted = ns.sorted()
      let median = fixedDecimal(quantile(sorted, 0.5) / 1000, places: 2)
      let p99 = fixedDecimal(quantile(sorted, 0.99) / 1000, places: 2)
      return "median \(median) µs, p99 \(p99) µs"
    }
    func percent(_ count: Int, _ total: Int) -> String {
      "\(fixedDecimal(100 * Double(count) / Double(max(1, total)), places: 2)) %"
    }
    var lines = [
      "keyboard queries (one call at a time; a call's median over \(passes) passes; "
        + "timer \(fixedDecimal(overhead, places: 2)) ns)",
      "  completion, limit 10   \(us(completionNs))   (\(grouped(prefixes.count)) prefixes of "
        + "\(grouped(completionWords)) words)",
    ]
    for (label, range) in [("1", 1...1), ("2", 2...2), ("3", 3...3), ("4+", 4...Int.max)] {
      let times = prefixes.indices.filter { range.contains(prefixes[$0].letters) }.map {
        completionNs[$0]
      }
      let letters = label == "1" ? "letter" : "letters"
      lines.append("    \(label) \(letters): \(us(times))   (\(grouped(times.count)) prefixes)")
    }
    let first = percent(ranks.filter { $0 == 0 }.count, ranks.count)
    let top3 = percent(ranks.filter { ($0 ?? 99) < 3 }.count, ranks.count)
    lines.append(
      "  correction, limit 10   \(us(correctionNs))   (\(grouped(typed.count)) typed words); "
        + "intended word first \(first), in the top 3 \(top3)")
    let medianCandidates = grouped(Int(quantile(sortedCounts, 0.5)))
    lines.append(
      "  swipe filter           \(us(filterNs))   (\(grouped(swipeSample.count)) swipes); median "
        + "\(medianCandidates) candidates, swiped word kept \(percent(kept, swipeSample.count))")

    let json: JSONValue = .object([
      ("seed", .int(Int64(truncatingIfNeeded: seed))), ("passes", .number(passes)),
      ("timerOverheadNs", .double(rounded(overhead, places: 1))),
      (
        "completion",
        .object(
          [
            ("words", .number(completionWords)), ("queries", .number(prefixes.count)),
            ("limit", 10),
          ] + stats(completionNs) + [
            ("byLength", .array(byLength)),
            ("results", .number(completionResults)),
            ("frequencySum", .number(completionFrequencies)),
            ("plainQueries", .number(prefixes.filter(\.plain).count)),
            ("plainResults", .number(plainResults)),
            ("plainFrequencySum", .number(plainFrequencies)),
          ])
      ),
      (
        "correction",
        .object(
          [("queries", .number(typed.count)), ("limit", 10)] + stats(correctionNs)
            + quality(Array(typed.indices))
            + quality(typed.indices.filter { typed[$0].kind != .unchanged }).map {
              ("typo" + $0.0.capitalized, $0.1)
            }
            + [("byKind", .array(byKind))])
      ),
      (
        "filter",
        .object(
          [("swipes", .number(swipeSample.count)), ("noiseKeyWidths", .double(swipeNoise))]
            + stats(filterNs) + [
              ("medianCandidates", .double(quantile(sortedCounts, 0.5))),
              ("p99Candidates", .double(quantile(sortedCounts, 0.99))),
              (
                "meanCandidates",
                .double(
                  rounded(sortedCounts.reduce(0, +) / Double(max(1, sortedCounts.count)), places: 1))
              ),
              ("recall", .double(rounded(Double(kept) / Double(max(1, swipeSample.count)), places: 4))),
            ])
      ),
    ])
    return Result(json: json, lines: lines)
  }

  /// Per call: the median over `passes` timed passes (after one warm-up pass) of its ns.
  func timeCalls(_ count: Int, _ call: (Int) -> Int) -> [Double] {
    timeEachCall(count, passes: passes, call)
  }

  /// The cost of one empty timed call (two clock reads), median of 100,000.
  func timerOverheadNs() -> Double {
    var samples: [Double] = []
    samples.reserveCapacity(100_000)
    for _ in 0..<100_000 {
      let start = monotonicNs()
      let end = monotonicNs()
      samples.append(Double(end &- start))
    }
    return quantile(samples.sorted(), 0.5)
  }

  func stats(_ ns: [Double]) -> [(String, JSONValue)] {
    let sorted = ns.sorted()
    let mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
    return [
      ("medianUs", .double(rounded(quantile(sorted, 0.5) / 1000, places: 3))),
      ("p99Us", .double(rounded(quantile(sorted, 0.99) / 1000, places: 3))),
      ("meanUs", .double(rounded(mean / 1000, places: 3))),
    ]
  }

  // MARK: - Sample files (for the peers, and to look at)

  /// Writes `words.tsv` (ID order: word, frequency byte, folded form), `completions.tsv`
  /// (letters, prefix, folded prefix, 1 if the prefix is plain: read by its folding classes
  /// alone), `typos.tsv` (kind, intended word, typed) and
  /// `swipes.jsonl` (the swipe format of DESIGN.md, without times).
  func writeSamples(
    _ directory: String, _ prefixes: [CompletionQuery], _ typed: [TypedWord],
    _ swipeSample: [SwipeQuery], protecting inputs: [String]
  ) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var words = ""
    words.reserveCapacity(dictionary.wordCount * 24)
    for (id, word) in dictionary.words(withPrefix: "") {
      words += "\(word)\t\(dictionary.frequency(of: id) ?? 0)\t\(folded(word))\n"
    }
    try write(words, directory + "/words.tsv")
    try write(
      prefixes.map { "\($0.letters)\t\($0.prefix)\t\($0.folded)\t\($0.plain ? 1 : 0)\n" }.joined(),
      directory + "/completions.tsv")
    try write(
      typed.map { "\($0.kind.rawValue)\t\($0.word)\t\($0.typed)\n" }.joined(),
      directory + "/typos.tsv")
    let swipes = swipeSample.map { sample in
      Swipe(word: sample.word, points: sample.points.map { SwipePoint(x: $0.x, y: $0.y) })
    }
    try write(SwipeFile.text(for: swipes), directory + "/swipes.jsonl")

    func write(_ text: String, _ path: String) throws {
      do {
        try AtomicFile.write(Array(text.utf8), to: path, protecting: inputs)
      } catch {
        throw failure(error)
      }
    }
  }
}

/// Calls `call(0..<count)` once (warm-up), then `passes` times each timed on its own; per call,
/// the median of its ns over the passes.
func timeEachCall(_ count: Int, passes: Int, _ call: (Int) -> Int) -> [Double] {
  var sink = 0
  for i in 0..<count { sink &+= call(i) }
  var samples = [Double](repeating: 0, count: count * passes)
  for p in 0..<passes {
    for i in 0..<count {
      let start = monotonicNs()
      sink &+= call(i)
      let end = monotonicNs()
      samples[i * passes + p] = Double(end &- start)
    }
  }
  blackHole(sink)
  return (0..<count).map { i in
    quantile(samples[(i * passes)..<((i + 1) * passes)].sorted(), 0.5)
  }
}

/// Nanoseconds of the monotonic clock (the clock C++'s steady_clock and Rust's Instant read).
@inline(__always)
func monotonicNs() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}
