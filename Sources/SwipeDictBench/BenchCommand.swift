import ArgumentParser
import Foundation
import SwipeDict
import SwipeDictCommandLine
import SwipeDictFiles
import SwipeDictTools

struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "queries",
    abstract: "Time open and queries on a blob (median of repeated passes, ns per operation).",
    discussion: """
      Without query files, hits are up to 100,000 words sampled evenly from the blob, misses \
      are those words with one letter changed (checked absent), prefixes their first two \
      letters. With --hits/--misses/--prefixes (one word per line) another tool's sample runs \
      unchanged. Each figure is the median over --passes passes of the mean time per \
      operation in one pass, after a warm-up pass.

      --keyboard also times the keyboard queries one call at a time: completions of every \
      prefix of --completion-words words drawn by frequency, corrections (one reusable \
      corrector) of --typos words per kind (adjacent-key substitution, omitted letter, extra \
      letter, transposition, unchanged) with how often the intended word comes first, and the \
      swipe filter on --swipes synthetic swipes (the model of `swipedict synth`). A call's \
      time is its median over the passes; the median and p99 are over the calls. \
      --keyboard-samples DIR writes the samples (and the words with frequency and folded \
      form, for other tools) to DIR.

      --misspellings FILE measures correction on real misspellings, typed<TAB>intended per \
      line (# comments): how often the intended word comes first and in the top 3 (ignoring \
      case), apart for typed words that are themselves words of the blob, and the time per \
      call; --misspellings-only skips everything else. --corrector and --cost choose the \
      correction model and its costs for --keyboard and --misspellings (docs/correction.md).

      --sentences FILE measures what the previous word buys on running text (one sentence \
      or passage per line), on a blob built with --bigrams: how often each word is the first \
      or among the top 3 next-word predictions after its previous word, the keystrokes a \
      3-word suggestion bar saves without and with the previous word, and completion's time \
      per call both ways (docs/context.md); --sentences-only skips everything else.

      Examples:
        swipedict bench build/en.swipedict
        swipedict bench build/en.swipedict --json --hits hits.txt --misses misses.txt --prefixes prefixes.txt
        swipedict bench build/en.swipedict --keyboard --passes 5
        swipedict bench build/en.swipedict --keyboard --json --keyboard-samples /tmp/en-samples
        swipedict bench build/en.swipedict --misspellings bench/work/misspellings/holdout.tsv --misspellings-only
        swipedict bench build/en.swipedict --keyboard --corrector kaennsch
        swipedict bench en-pairs.swipedict --sentences bench/work/context/test.txt --sentences-only
      """)

  @OptionGroup var blob: BlobArgument

  @Option(help: "Words to look up that are in the blob, one per line.")
  var hits: String?

  @Option(help: "Words to look up that are not in the blob, one per line.")
  var misses: String?

  @Option(help: "Prefixes whose words to list, one per line.")
  var prefixes: String?

  @Option(parsing: .unconditional, help: "Timed passes per measurement (1…100).")
  var passes: Int = 9

  @Flag(name: .long, help: "Print one JSON object.")
  var json = false

  @Flag(name: .long, help: "Also time completion, correction and the swipe filter, call by call.")
  var keyboard = false

  @Option(
    name: .customLong("keyboard-samples"),
    help: ArgumentHelp("Write the keyboard samples to this directory.", valueName: "dir"))
  var keyboardSamples: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Words drawn by frequency whose prefixes are completed (1…10,000).", valueName: "N"))
  var completionWords = 1000

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Typed words per typo kind (five kinds) to correct (1…10,000).", valueName: "N"))
  var typos = 400

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Swipes over words drawn by frequency to filter (1…10,000).", valueName: "N"))
  var swipes = 1000

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "σ of the swipes' aim around each key center, in key widths (0…10).", valueName: "σ"))
  var swipeNoise = 0.2

  @Option(
    parsing: .unconditional,
    help: "Seed of the keyboard samples: the same seed and blob give the same samples.")
  var seed: UInt64 = 2024

  @Option(
    help: ArgumentHelp(
      "Measure correction on real misspellings: a TSV file of typed<TAB>intended pairs (repeatable).",
      valueName: "file"))
  var misspellings: [String] = []

  @Flag(help: "Only the --misspellings measurement: skip the lookups and the keyboard queries.")
  var misspellingsOnly = false

  @Option(
    help: ArgumentHelp(
      "Measure next-word prediction and completion in context on running text, one sentence per line (repeatable).",
      valueName: "file"))
  var sentences: [String] = []

  @Flag(
    help: "Only the --sentences measurement (and --misspellings, if given): skip the lookups and the keyboard queries.")
  var sentencesOnly = false

  @OptionGroup(title: "Correction (--keyboard, --misspellings)") var correction: CorrectionArguments

  @OptionGroup var user: UserWordsOption

  func validate() throws {
    try checkRange("--passes", passes, in: 1...100)
    try checkRange("--completion-words", completionWords, in: 1...10_000)
    try checkRange("--typos", typos, in: 1...10_000)
    try checkRange("--swipes", swipes, in: 1...10_000)
    try checkRange("--swipe-noise", swipeNoise, in: 0...10, unit: "key widths")
    if keyboardSamples != nil && !keyboard { throw ValidationError("--keyboard-samples needs --keyboard") }
    if misspellingsOnly && misspellings.isEmpty { throw ValidationError("--misspellings-only needs --misspellings") }
    if sentencesOnly && sentences.isEmpty { throw ValidationError("--sentences-only needs --sentences") }
  }

  func run() throws {
    var dictionary = try blob.open()
    try user.apply(to: &dictionary)
    let misspellingResults = try misspellings.map { path in
      try MisspellingBench(dictionary: dictionary, model: correction.model(), passes: passes)
        .run(MisspellingBench.read(path), name: path)
    }
    if !sentences.isEmpty, !dictionary.hasBigrams {
      throw failure(
        "\(blob.blob) has no word pairs for --sentences\n  hint: build it with --bigrams FILE (w1 w2<TAB>count lines"
          + " whose words are words of the blob)")
    }
    let sentenceResults = try sentences.map { path in
      SentenceBench(dictionary: dictionary, passes: passes).run(
        try SentenceBench.read(path, dictionary: dictionary), name: path)
    }
    if misspellingsOnly || sentencesOnly {
      if json {
        var members: [(String, JSONValue)] = []
        if !misspellingResults.isEmpty { members.append(("misspellings", .array(misspellingResults.map(\.json)))) }
        if !sentenceResults.isEmpty { members.append(("sentences", .array(sentenceResults.map(\.json)))) }
        print(JSONValue.object(members).text)
      } else {
        for line in misspellingResults.flatMap(\.lines) + sentenceResults.flatMap(\.lines) { print(line) }
      }
      return
    }
    let hitWords = try hits.map(readLines) ?? sampleWords(dictionary)
    let missWords = try misses.map(readLines) ?? mutated(hitWords, dictionary)
    let prefixList =
      try prefixes.map(readLines)
      ?? Array(Set(hitWords.map { String($0.prefix(2)) })).sorted().prefix(1000).map { $0 }
    let ids = hitWords.compactMap { dictionary.id(of: $0) }
    guard !hitWords.isEmpty, !ids.isEmpty else { throw failure("no hit words to time") }

    let path = blob.blob
    let memory = measureMemory(path: path, words: hitWords)
    let openNs = medianOpen(passes: passes) { try? SwipeDictionary(contentsOf: path) }
    let hitNs = median(passes: passes, operations: hitWords.count) {
      var found = 0
      for word in hitWords where dictionary.contains(word) { found &+= 1 }
      return found
    }
    let missNs = median(passes: passes, operations: missWords.count) {
      var found = 0
      for word in missWords where dictionary.contains(word) { found &+= 1 }
      return found
    }
    let wordToIdNs = median(passes: passes, operations: hitWords.count) {
      var sum = 0
      for word in hitWords { sum &+= dictionary.id(of: word) ?? 0 }
      return sum
    }
    let idToWordNs = median(passes: passes, operations: ids.count) {
      var bytes = 0
      for id in ids { bytes &+= dictionary.word(for: id)?.utf8.count ?? 0 }
      return bytes
    }
    let prefixNs = median(passes: passes, operations: max(1, prefixList.count)) {
      var listed = 0
      for prefix in prefixList {
        for _ in dictionary.words(withPrefix: prefix) { listed &+= 1 }
      }
      return listed
    }
    var listed = 0
    for prefix in prefixList { listed += dictionary.idRange(withPrefix: prefix).count }
    let wordsPerPrefix = Double(listed) / Double(max(1, prefixList.count))
    let inputs = [blob.blob] + [hits, misses, prefixes].compactMap { $0 } + misspellings + sentences
    let keyboardResult =
      try keyboard
      ? keyboardBench(dictionary).run(samplesDirectory: keyboardSamples, protecting: inputs) : nil
    if json {
      var members: [(String, JSONValue)] = [
        ("words", .number(dictionary.wordCount)), ("fileBytes", .number(dictionary.fileSize)),
        ("hits", .number(hitWords.count)), ("misses", .number(missWords.count)),
        ("prefixes", .number(prefixList.count)), ("passes", .number(passes)),
        ("openNs", .double(openNs.rounded())), ("lookupHitNs", .double(hitNs.rounded())),
        ("lookupMissNs", .double(missNs.rounded())), ("wordToIdNs", .double(wordToIdNs.rounded())),
        ("idToWordNs", .double(idToWordNs.rounded())), ("prefixNs", .double(prefixNs.rounded())),
        ("wordsPerPrefix", .double(rounded(wordsPerPrefix, places: 1))),
        ("mappedResidentKB", memory.map { .number($0.mappedResident) } ?? .null),
        ("mappedDirtyKB", memory.map { .number($0.mappedDirty) } ?? .null),
        ("heapDirtyKB", memory.map { .number($0.heapDirty) } ?? .null),
      ]
      if let keyboardResult { members.append(("keyboard", keyboardResult.json)) }
      if !misspellingResults.isEmpty { members.append(("misspellings", .array(misspellingResults.map(\.json)))) }
      if !sentenceResults.isEmpty { members.append(("sentences", .array(sentenceResults.map(\.json)))) }
      print(JSONValue.object(members).text)
    } else {
      print("\(blob.blob): \(grouped(dictionary.wordCount)) words, median of \(passes) passes")
      print("  open            \(fixedDecimal(openNs / 1000, places: 2)) µs")
      print("  lookup hit      \(fixedDecimal(hitNs, places: 2)) ns   (\(grouped(hitWords.count)) words)")
      print("  lookup miss     \(fixedDecimal(missNs, places: 2)) ns   (\(grouped(missWords.count)) words)")
      print("  word → ID       \(fixedDecimal(wordToIdNs, places: 2)) ns")
      print("  ID → word       \(fixedDecimal(idToWordNs, places: 2)) ns")
      print(
        "  prefix listing  \(fixedDecimal(prefixNs / 1000, places: 2)) µs   (\(prefixList.count) prefixes, "
          + "\(fixedDecimal(wordsPerPrefix, places: 2)) words each)")
      if let memory {
        print(
          "  memory after open + \(grouped(hitWords.count)) lookups: mapping \(memory.mappedResident) kB "
            + "resident, \(memory.mappedDirty) kB dirty; heap +\(memory.heapDirty) kB dirty")
      }
      if let keyboardResult { for line in keyboardResult.lines { print(line) } }
      for line in misspellingResults.flatMap(\.lines) + sentenceResults.flatMap(\.lines) { print(line) }
    }
  }

  private func keyboardBench(_ dictionary: SwipeDictionary) throws -> KeyboardBench {
    KeyboardBench(
      dictionary: dictionary, passes: passes, seed: seed, completionWords: completionWords,
      typosPerKind: typos, swipes: swipes, swipeNoise: swipeNoise, correction: try correction.model())
  }

  private func readLines(_ path: String) throws -> [String] {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
      throw failure("\(path): cannot read")
    }
    return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
      let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
      return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
    }
  }

  private func sampleWords(_ dictionary: SwipeDictionary) -> [String] {
    let n = min(100_000, dictionary.wordCount)
    guard n > 0 else { return [] }
    let step = dictionary.wordCount / n
    var generator = SeededGenerator(state: 42)
    var words = (0..<n).compactMap { dictionary.word(for: $0 * step) }
    words.shuffle(using: &generator)
    return words
  }

  private func mutated(_ words: [String], _ dictionary: SwipeDictionary) -> [String] {
    var generator = SeededGenerator(state: 7)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    return words.compactMap { word in
      var chars = Array(word)
      for _ in 0..<8 {
        chars[Int.random(in: 0..<chars.count, using: &generator)] = letters.randomElement(using: &generator)!
        let candidate = String(chars)
        if !dictionary.contains(candidate) { return candidate }
      }
      return nil
    }
  }
}

/// The median over `passes` timed passes (after one warm-up) of ns per operation. `body`
/// returns a value derived from its results, so the optimizer cannot drop the work.
func median(passes: Int, operations: Int, _ body: () -> Int) -> Double {
  let clock = ContinuousClock()
  blackHole(body())
  var samples: [Double] = []
  for _ in 0..<passes {
    let start = clock.now
    blackHole(body())
    samples.append(nanoseconds(clock.now - start) / Double(max(1, operations)))
  }
  return quantile(samples.sorted(), 0.5)
}

/// The median over `passes` passes (after one warm-up pass) of the mean time of one `open`,
/// timed as bench/peers/common.h times the peers' opens: each pass opens 16 times into slots,
/// and the values are released after the clock stops, so closing is not counted.
func medianOpen<Opened>(passes: Int, _ open: () -> Opened?) -> Double {
  let opensPerPass = 16
  let clock = ContinuousClock()
  var samples: [Double] = []
  var slots: [Opened?] = []
  slots.reserveCapacity(opensPerPass)
  for pass in -1..<passes {
    let start = clock.now
    for _ in 0..<opensPerPass { slots.append(open()) }
    let ns = nanoseconds(clock.now - start)
    blackHole(slots.count { $0 != nil })
    slots.removeAll(keepingCapacity: true)
    if pass >= 0 { samples.append(ns / Double(opensPerPass)) }
  }
  return quantile(samples.sorted(), 0.5)
}

/// A duration in nanoseconds.
func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}
