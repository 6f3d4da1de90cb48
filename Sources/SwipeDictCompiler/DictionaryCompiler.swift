import Foundation
import SwipeDictFiles
@_spi(SwipeDictInternals) import SwipeDictFormat

/// Turns word lists and a layout into a blob.
///
/// ```swift
/// let layout = try LayoutFile.load("corpora/layouts/qwerty-en.json")
/// let result = try DictionaryCompiler.compile(inputs: ["corpora/en.tsv.zst"], layout: layout)
/// try AtomicFile.write(result.bytes, to: "build/en.swipedict")  // temporary file, then rename
/// ```
///
/// Steps: read every input (streamed), normalize to NFC and merge counts of equal words;
/// drop words that cannot be typed on the layout or whose key path is empty, below
/// `minCount`, beyond `maxWords`; number the alphabet in the folding collation; sort; build
/// the minimal automaton; quantize frequencies in ID order; compute each word's swipe
/// features; build the prefix tree and the top list; write the sections.
public enum DictionaryCompiler {
  /// Builds a blob in memory.
  /// - Parameters:
  ///   - inputs: word list paths (any order: they are processed sorted by path).
  ///   - layout: the keyboard layout.
  ///   - options: build options.
  ///   - progress: called as the build advances (from the calling thread).
  /// - Returns: the blob and the report.
  /// - Throws: `WordListError` for bad input, `CompileError` otherwise.
  ///   - bigrams: bigram list paths (`w1 w2<TAB>count` lines; plain, zstd or gzip), read
  ///     into the `BIGR` section.
  public static func compile(
    inputs: [String], bigrams: [String] = [], layout: KeyboardLayout, options: CompileOptions = .init(),
    progress: ((CompileProgress) -> Void)? = nil
  ) throws -> CompiledDictionary {
    let paths = inputs.sorted()
    for (a, b) in zip(paths, paths.dropFirst()) where a == b {
      throw CompileError.duplicateInput(path: a)
    }
    let bigramPaths = bigrams.sorted()
    for (a, b) in zip(bigramPaths, bigramPaths.dropFirst()) where a == b {
      throw CompileError.duplicateInput(path: a)
    }
    // The lists are parsed on this thread and their entries counted on another, in batches
    // and in order: the two halves of reading take about as long, and nothing else runs yet.
    let batches = BoundedQueue<[WordListEntry]>(capacity: 2)
    defer { batches.close() }  // after an error, the counting thread ends too
    let tally = BackgroundWork { () -> (WordCounts, Annotations) in
      var counts = WordCounts()
      var annotations = Annotations()
      while let batch = batches.next() {
        for entry in batch { annotations.add(entry, to: &counts) }
      }
      return (counts, annotations)
    }
    var batch: [WordListEntry] = []
    batch.reserveCapacity(Self.entryBatchSize)
    var reports: [WordListReport] = []
    var entriesRead = 0
    let readOptions = WordListReadOptions(skipInvalid: options.skipInvalid)
    for path in paths {
      progress?(CompileProgress(stage: .reading, detail: path))
      let report = try readWordList(atPath: path, options: readOptions) { entry in
        batch.append(entry)
        if batch.count == Self.entryBatchSize {
          batches.send(batch)
          batch.removeAll(keepingCapacity: true)
        }
        entriesRead += 1
        if entriesRead % 100_000 == 0 {
          progress?(CompileProgress(stage: .reading, detail: "\(path): \(entriesRead) entries"))
        }
      }
      reports.append(report)
    }
    batches.send(batch)
    batches.close()
    let (counts, annotations) = tally.wait()
    var pairs = BigramCounts()
    var bigramReports: [WordListReport] = []
    let pairOptions = WordListReadOptions(skipInvalid: options.skipInvalid, wordPairs: true)
    for path in bigramPaths {
      progress?(CompileProgress(stage: .reading, detail: path))
      bigramReports.append(try readWordList(atPath: path, options: pairOptions) { pairs.add($0) })
    }

    return try build(
      counts: consume counts, annotations: annotations, inputs: reports, entriesRead: entriesRead,
      bigrams: pairs, bigramInputs: bigramReports, layout: layout, options: options, progress: progress)
  }

  /// Entries handed to the counting thread at a time.
  static let entryBatchSize = 4_096

  /// Counts of word pairs, summed over the bigram lists (words in NFC).
  struct BigramCounts {
    var counts: [String: [String: Double]] = [:]

    /// Pairs given with a count of 0 (or not a positive finite number): counted as dropped.
    var zeroCounts = 0

    /// Adds a `w1 w2` entry of a bigram list (the reader guarantees the one space).
    mutating func add(_ entry: WordListEntry) {
      let scalars = entry.word.unicodeScalars
      guard let space = scalars.firstIndex(of: " ") else { return }
      add(String(scalars[..<space]), String(scalars[scalars.index(after: space)...]), entry.count)
    }

    mutating func add(_ first: String, _ second: String, _ count: Double) {
      guard count.isFinite, count > 0 else {
        zeroCounts += 1
        return
      }
      // Sums stay finite (as file counts, at most 2^53 each, do).
      let sum = counts[Collation.nfc(first), default: [:]][Collation.nfc(second), default: 0] + count
      counts[Collation.nfc(first), default: [:]][Collation.nfc(second)] = min(sum, 0x1p53)
    }
  }

  /// What word lists say beyond counts: marks, misspellings and shortcuts (AOSP lists).
  struct Annotations {
    /// Marks of words, merged over entries.
    var marks: [String: WordMarks] = [:]
    /// Entries that are misspellings (`not_a_word`), kept only for their shortcuts.
    var misspellings: Set<String> = []
    /// Every distinct shortcut.
    var shortcuts: Set<MarkLayout.Entry> = []

    /// Adds an entry: its count to `counts` (unless it is a misspelling), its marks and
    /// shortcuts here. Words and targets are normalized to NFC.
    mutating func add(_ entry: WordListEntry, to counts: inout WordCounts) {
      let word = Collation.nfc(entry.word)
      if entry.isMisspelling {
        misspellings.insert(word)
      } else {
        counts.add(word, count: entry.count)
        if !entry.marks.isEmpty { marks[word, default: []].formUnion(entry.marks) }
      }
      for shortcut in entry.shortcuts {
        var shortcut = shortcut
        shortcut.target = Collation.nfc(shortcut.target)
        shortcuts.insert(MarkLayout.Entry(source: word, shortcut: shortcut))
      }
    }
  }

  /// Builds a blob from words and counts held in memory (no input files).
  ///
  /// Words are normalized to NFC and equal words' counts add up, as with files.
  /// - Parameters:
  ///   - words: each word with its count.
  ///   - layout: the keyboard layout.
  ///   - options: build options (`skipInvalid` does not apply).
  /// - Returns: the blob and the report.
  ///   - bigrams: word pairs with their counts, for the `BIGR` section.
  public static func compile(
    words: [(word: String, count: Double)], bigrams: [(first: String, second: String, count: Double)] = [],
    layout: KeyboardLayout, options: CompileOptions = .init()
  ) throws -> CompiledDictionary {
    try compile(
      entries: words.enumerated().map { WordListEntry(word: $1.word, count: $1.count, line: $0 + 1) },
      bigrams: bigrams, layout: layout, options: options)
  }

  /// Builds a blob from entries held in memory, with their marks, misspellings and
  /// shortcuts, exactly as if they had been read from a file.
  /// - Parameters:
  ///   - entries: the entries.
  ///   - layout: the keyboard layout.
  ///   - options: build options (`skipInvalid` does not apply).
  /// - Returns: the blob and the report.
  ///   - bigrams: word pairs with their counts, for the `BIGR` section.
  public static func compile(
    entries: [WordListEntry], bigrams: [(first: String, second: String, count: Double)] = [],
    layout: KeyboardLayout, options: CompileOptions = .init()
  ) throws -> CompiledDictionary {
    var counts = WordCounts()
    var annotations = Annotations()
    for entry in entries { annotations.add(entry, to: &counts) }
    var pairs = BigramCounts()
    for (first, second, count) in bigrams { pairs.add(first, second, count) }
    return try build(
      counts: consume counts, annotations: annotations, inputs: [], entriesRead: entries.count,
      bigrams: pairs, bigramInputs: [], layout: layout, options: options, progress: nil)
  }

  /// The build after reading: the words chosen, put in ID order, and each section computed
  /// from them (the automaton on a thread of its own), then the blob and its report. The
  /// word table is freed as soon as nothing reads it, before the largest stages.
  private static func build(
    counts: consuming WordCounts, annotations: Annotations, inputs reports: [WordListReport],
    entriesRead: Int, bigrams: BigramCounts, bigramInputs: [WordListReport],
    layout: KeyboardLayout, options: CompileOptions, progress: ((CompileProgress) -> Void)?
  ) throws -> CompiledDictionary {
    var counts = counts
    var (selection, sums) = try select(
      &counts, annotations: annotations, inputs: reports, entriesRead: entriesRead, layout: layout,
      options: options, progress: progress)

    progress?(CompileProgress(stage: .sorting, detail: "\(selection.kept.count) words"))
    let alphabet = try alphabet(of: selection.kept, in: counts)
    var ordered = inIDOrder(&selection.kept, of: &counts, sums: &sums, alphabet: alphabet)
    let wordCount = ordered.order.count
    /// The word of an ID.
    func word(ofID id: Int) -> String { counts.word(at: Int(selection.kept[Int(ordered.order[id])])) }

    progress?(CompileProgress(stage: .building, detail: "\(wordCount) words"))
    // The automaton on a thread of its own while the other sections are computed here:
    // neither reads what the other writes.
    let words = ordered.words
    let automaton = BackgroundWork { () throws(CompileError) -> EncodedAutomaton in
      try EncodedAutomaton(words: words)
    }

    // Marks, bigrams and the report's examples read the words' spellings; then the word
    // table is freed, while the automaton is built, before the other sections are.
    let quantized = ordered.order.map { ordered.quantizedByEntry[Int($0)] }
    let (marked, shortcuts) = marksAndShortcuts(annotations, wordCount: wordCount, word: word(ofID:))
    let bigramSection = bigramSection(
      bigrams, wordCount: wordCount, word: word(ofID:), quantized: quantized, scale: ordered.scale)
    // The first ten in code-point order.
    func examples(_ entries: [Int]) -> [String] {
      entries.sorted(by: counts.bytesPrecede).prefix(10).map(counts.word(at:))
    }
    let (untypeableExamples, noKeysExamples) = (examples(selection.untypeable), examples(selection.noKeys))
    // Nothing below reads entries any more: free them (the word table, and 9 bytes a word
    // of kept entries, order and frequencies) while the automaton and the other sections
    // are built.
    counts = WordCounts()
    selection.kept = []
    ordered.order = []
    ordered.quantizedByEntry = []

    let computed = WordSections(
      words: words, quantized: quantized, scale: ordered.scale, alphabet: alphabet, layout: layout)
    progress?(CompileProgress(stage: .building, detail: "FREQ, FEAT, PTRE and BEST done; the automaton"))
    let dawg = try automaton.wait()
    progress?(CompileProgress(stage: .writing, detail: "the blob"))
    let tally = Tally(
      selection, words: wordCount, marked: marked, shortcuts: shortcuts,
      bigrams: (bigramSection.kept, bigramSection.dropped))
    // Only builds given bigram lists say so (other blobs stay byte-identical).
    let metadata = metadata(
      of: tally, inputs: reports, bigramInputs: !bigrams.counts.isEmpty || !bigramInputs.isEmpty ? bigramInputs : nil,
      layout: layout, options: options)
    let blob = Self.blob(
      alphabet: alphabet, layout: layout, metadata: metadata, automaton: dawg, computed: computed,
      marks: (wordCount, marked, shortcuts), bigrams: bigramSection.bytes)
    if let budget = options.budget, blob.bytes.count > budget {
      throw CompileError.overBudget(bytes: blob.bytes.count, budget: budget)
    }
    var report = CompileReport(
      inputs: reports, entriesRead: entriesRead, distinctWords: selection.distinct,
      untypeable: tally.untypeable, untypeableExamples: untypeableExamples,
      emptyKeyPath: tally.emptyKeyPath, emptyKeyPathExamples: noKeysExamples,
      belowMinCount: tally.belowMinCount, beyondMaxWords: tally.beyondMaxWords, words: wordCount,
      neverSuggested: tally.neverSuggested, abbreviations: tally.abbreviations,
      misspellings: tally.misspellings, shortcuts: tally.shortcuts, whitelisted: tally.whitelisted,
      alphabetSize: alphabet.count, states: dawg.stateCount,
      transitions: dawg.transitionCount,
      sections: blob.sections, bytes: blob.bytes.count)
    report.bigrams = tally.bigrams
    report.bigramsDropped = tally.bigramsDropped
    report.bigramInputs = bigramInputs
    return CompiledDictionary(bytes: blob.bytes, report: report)
  }

  /// The blob's bytes and each section's tag and size, in file order.
  private static func blob(
    alphabet: Alphabet, layout: KeyboardLayout, metadata: JSONValue, automaton: EncodedAutomaton,
    computed: WordSections,
    marks: (wordCount: Int, marked: [(id: Int, marks: WordMarks)], shortcuts: [MarkLayout.Entry]),
    bigrams: [UInt8]?
  ) -> (bytes: [UInt8], sections: [(tag: SectionTag, bytes: Int)]) {
    // The small sections first: with the header and the table (which holds every section's
    // fixed header, format 1.4) they share the first page, the only one opening reads.
    var sections: [BlobContainer.Section] = [
      .init(tag: .alphabet, bytes: alphabet.encoded()),
      .init(tag: .layout, bytes: layout.encoded()),
      .init(tag: .metadata, bytes: Array(metadata.text.utf8)),
      .init(tag: .dawg, bytes: automaton.section),
      .init(tag: .frequency, bytes: computed.frequency),
      .init(tag: .features, bytes: computed.features),
      .init(tag: .prefixTree, bytes: computed.tree),
      .init(tag: .bestLists, bytes: computed.bestLists),
    ]
    // Only lists that mark words or carry shortcuts get a MARK section.
    if !marks.marked.isEmpty || !marks.shortcuts.isEmpty {
      sections.append(
        .init(
          tag: .marks,
          bytes: MarkLayout.encode(wordCount: marks.wordCount, marks: marks.marked, shortcuts: marks.shortcuts)))
    }
    if let bigrams { sections.append(.init(tag: .bigrams, bytes: bigrams)) }
    return (BlobContainer.encode(sections, flags: computed.headerFlags), sections.map { ($0.tag, $0.bytes.count) })
  }

  /// The entries a blob keeps, and how many were dropped and why.
  private struct Selection {
    /// Entries of the word table, kept.
    var kept: [UInt32]
    /// Entries dropped as untypeable, and as typing no key.
    var untypeable: [Int]
    var noKeys: [Int]
    var belowMinCount: Int
    var beyondMaxWords: Int
    /// Distinct words read, and misspellings that are no word of the lists.
    var distinct: Int
    var misspellings: Int
  }

  /// Chooses the words: misspellings that are words too become words; then the words the
  /// layout can type, at or above `minCount`, at most `maxWords` of them (the most frequent).
  /// - Returns: the choice, and each entry's summed count (the only reference to them once
  ///   the table's counts are freed).
  /// - Throws: `CompileError` when the layout has too many keys or no word is left.
  private static func select(
    _ counts: inout WordCounts, annotations: Annotations, inputs reports: [WordListReport], entriesRead: Int,
    layout: KeyboardLayout, options: CompileOptions, progress: ((CompileProgress) -> Void)?
  ) throws -> (Selection, sums: [Double]) {
    // Misspellings that are words too are words. Then no word is looked up any more.
    counts.placePending()
    let misspellings = annotations.misspellings.filter { counts.index(of: $0) == nil }.count
    counts.removeIndex()
    progress?(CompileProgress(stage: .filtering, detail: "\(counts.count) distinct words"))
    // The summed counts, by entry; freed once quantized, before the sort (the largest stage).
    let sums = counts.counts
    guard layout.keys.count <= FeatureLayout.maxKeys else {
      throw CompileError.tooManyKeys(count: layout.keys.count)
    }
    // Entries of `counts` kept, and those dropped as untypeable or without keys.
    let outcome = EntryFilter.outcome(of: counts, sums: sums, layout: layout, minCount: options.minCount)
    var kept = outcome.kept
    var beyondMaxWords = 0
    if let maxWords = options.maxWords, kept.count > maxWords {
      kept.sort { a, b in
        let (ca, cb) = (sums[Int(a)], sums[Int(b)])
        return ca != cb ? ca > cb : counts.bytesPrecede(Int(a), Int(b))
      }
      beyondMaxWords = kept.count - maxWords
      kept.removeSubrange(maxWords...)
    }
    guard !kept.isEmpty else {
      throw CompileError.noWords(
        read: entriesRead, untypeable: outcome.untypeable.count + outcome.noKeys.count,
        belowMinCount: outcome.belowMinCount, skipped: reports.reduce(0) { $0 + $1.skipped },
        firstSkipped: reports.flatMap(\.warnings).prefix(3).map { "\($0.location): \($0.message)" },
        misspellings: annotations.misspellings.count)
    }
    let selection = Selection(
      kept: kept, untypeable: outcome.untypeable, noKeys: outcome.noKeys,
      belowMinCount: outcome.belowMinCount, beyondMaxWords: beyondMaxWords, distinct: counts.count,
      misspellings: misspellings)
    return (selection, sums)
  }

  /// The alphabet of the kept words, numbered in the folding collation.
  private static func alphabet(of kept: [UInt32], in counts: WordCounts) throws(CompileError) -> Alphabet {
    let scalars = EntryFilter.characters(of: kept, in: counts)
    guard scalars.count <= Alphabet.maxCount else {
      throw CompileError.tooManyCharacters(count: scalars.count)
    }
    return Collation.alphabet(of: scalars)
  }

  /// The kept words in ID order, labeled, and their quantized frequencies.
  private struct OrderedWords {
    var words: LabeledWords
    /// Index in `kept` of each word ID.
    var order: [UInt32]
    var scale: Double
    /// The frequency byte of each kept entry, in `kept` order.
    var quantizedByEntry: [UInt8]
  }

  /// Puts the kept words in ID order once (one pass of random reads instead of one per
  /// stage): they are split at a first letter into two halves of about the same size, which
  /// are labeled, sorted and put in order on two threads; every word of the second half
  /// sorts after those of the first. Frees the table's counts, and `sums` once they are
  /// quantized, before the sort, the build's largest stage.
  private static func inIDOrder(
    _ kept: inout [UInt32], of counts: inout WordCounts, sums: inout [Double], alphabet: Alphabet
  ) -> OrderedWords {
    let split: Int
    (kept, split) = LabeledWords.splitByFirstLabel(kept, of: counts, alphabet: alphabet)
    // The second thread's copy of the word table holds no counts: `sums` is their only
    // reference.
    counts.removeCounts()
    let (table, secondHalf) = (counts, Array(kept[split...]))
    let second = BackgroundWork { LabeledWords.sorted(secondHalf, of: table, alphabet: alphabet) }
    func quantized(_ sums: [Double]) -> (scale: Double, bytes: [UInt8]) {
      let scale = log1p(kept.lazy.map { sums[Int($0)] }.max() ?? 0)
      return (scale, kept.map { FrequencyLayout.quantize(sums[Int($0)], scale: scale) })
    }
    let (scale, quantizedByEntry) = quantized(sums)
    sums = []
    let first = LabeledWords.sorted(Array(kept[..<split]), of: counts, alphabet: alphabet)
    let (secondWords, secondOrder) = second.wait()
    return OrderedWords(
      words: LabeledWords(joining: first.words, secondWords),
      order: first.order + secondOrder.lazy.map { $0 + UInt32(split) }, scale: scale,
      quantizedByEntry: quantizedByEntry)
  }

  /// Marks by word ID; shortcuts in section order. A misspelling that is also a word of the
  /// blob is a word. Sources and targets over 65,535 bytes cannot be stored (lines of files
  /// are at most 64 KiB, so only in-memory entries can have them): left out.
  private static func marksAndShortcuts(
    _ annotations: Annotations, wordCount: Int, word: (Int) -> String
  ) -> (marked: [(id: Int, marks: WordMarks)], shortcuts: [MarkLayout.Entry]) {
    var marked: [(id: Int, marks: WordMarks)] = []
    if !annotations.marks.isEmpty {
      for id in 0..<wordCount {
        if let marks = annotations.marks[word(id)] { marked.append((id, marks)) }
      }
    }
    let shortcuts = annotations.shortcuts
      .filter { entry in
        entry.source.utf8.count <= MarkLayout.maxTextLength
          && entry.shortcut.target.utf8.count <= MarkLayout.maxTextLength
      }
      .sorted(by: MarkLayout.precedes)
    return (marked, shortcuts)
  }

  /// The `BIGR` section: the pairs between words of the blob, by first word ID, then
  /// follower ID; `nil` when none is left. `dropped` counts the pairs with a word not in the
  /// blob and those the lists gave no positive count.
  private static func bigramSection(
    _ bigrams: BigramCounts, wordCount: Int, word: (Int) -> String, quantized: [UInt8], scale: Double
  ) -> (bytes: [UInt8]?, kept: Int, dropped: Int) {
    var dropped = bigrams.zeroCounts
    guard !bigrams.counts.isEmpty else { return (nil, 0, dropped) }
    var exact: [String: Int] = [:]
    exact.reserveCapacity(wordCount)
    // A pair's word in another case ("i am") finds the blob's word ("I") when the blob
    // spells it one way only.
    var byLowercase: [String: Int?] = [:]
    for id in 0..<wordCount {
      let word = word(id)
      exact[word] = id
      let lower = word.lowercased()
      byLowercase[lower] = byLowercase[lower] == nil ? .some(id) : .some(nil)
    }
    func idOf(_ word: String) -> Int? { exact[word] ?? byLowercase[word.lowercased()] ?? nil }
    // Pairs that meet in the blob's spelling ("i am", "I am") add up.
    var byFirst: [Int: [Int: Double]] = [:]
    var largest = 0.0
    for (first, seconds) in bigrams.counts {
      guard let a = idOf(first) else {
        dropped += seconds.count
        continue
      }
      for (second, count) in seconds {
        guard let b = idOf(second) else {
          dropped += 1
          continue
        }
        byFirst[a, default: [:]][b] = min((byFirst[a]?[b] ?? 0) + count, 0x1p53)
      }
    }
    for followers in byFirst.values { for count in followers.values { largest = max(largest, count) } }
    let bigramScale = log1p(largest)
    let followers = byFirst.keys.sorted().map { first in
      (
        first: first,
        next: byFirst[first]!.sorted { $0.key < $1.key }.map {
          (id: $0.key, frequency: BigramLayout.quantize($0.value, scale: bigramScale))
        }
      )
    }
    let kept = followers.reduce(0) { $0 + $1.next.count }
    guard kept > 0 else { return (nil, 0, dropped) }
    let bytes = BigramLayout.encode(
      wordCount: wordCount, followers: followers, scale: bigramScale,
      unigramTotal: BigramLayout.unigramTotal(frequencies: quantized, scale: scale))
    return (bytes, kept, dropped)
  }

  /// What a build kept and dropped, counted once for the blob's metadata and the report.
  private struct Tally {
    var words: Int
    var untypeable, emptyKeyPath, belowMinCount, beyondMaxWords: Int
    var neverSuggested, abbreviations, misspellings, shortcuts, whitelisted: Int
    var bigrams, bigramsDropped: Int

    init(
      _ selection: Selection, words: Int, marked: [(id: Int, marks: WordMarks)], shortcuts: [MarkLayout.Entry],
      bigrams: (kept: Int, dropped: Int)
    ) {
      self.words = words
      (untypeable, emptyKeyPath) = (selection.untypeable.count, selection.noKeys.count)
      (belowMinCount, beyondMaxWords) = (selection.belowMinCount, selection.beyondMaxWords)
      neverSuggested = marked.count(where: { $0.marks.contains(.possiblyOffensive) })
      abbreviations = marked.count(where: { $0.marks.contains(.abbreviation) })
      misspellings = selection.misspellings
      self.shortcuts = shortcuts.count
      whitelisted = shortcuts.count(where: { $0.shortcut.isWhitelisted })
      (self.bigrams, bigramsDropped) = bigrams
    }
  }

  /// The `META` section's document. `bigramInputs` is `nil` for a build given no word pairs,
  /// whose metadata leaves the bigram member out.
  private static func metadata(
    of tally: Tally, inputs reports: [WordListReport], bigramInputs: [WordListReport]?,
    layout: KeyboardLayout, options: CompileOptions
  ) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("tool", .string("swipedict \(SwipeDictVersion.string)")),
      ("format", .string(FormatVersion.current.description)),
      ("inputs", .array(reports.map(describe))),
      ("layout", .string(layout.name)),
      (
        "options",
        .object([
          ("maxWords", options.maxWords.map { .number($0) } ?? .null),
          ("minCount", .double(options.minCount)),
          ("skipInvalid", .bool(options.skipInvalid)),
        ])
      ),
      ("words", .number(tally.words)),
      (
        "dropped",
        .object([
          ("untypeable", .number(tally.untypeable)),
          ("emptyKeyPath", .number(tally.emptyKeyPath)),
          ("belowMinCount", .number(tally.belowMinCount)),
          ("beyondMaxWords", .number(tally.beyondMaxWords)),
        ])
      ),
      (
        "marks",
        .object([
          ("possiblyOffensive", .number(tally.neverSuggested)),
          ("abbreviation", .number(tally.abbreviations)),
          ("misspellings", .number(tally.misspellings)),
          ("shortcuts", .number(tally.shortcuts)),
          ("whitelisted", .number(tally.whitelisted)),
        ])
      ),
    ]
    if let bigramInputs {
      let inputs: [JSONValue] = bigramInputs.map(describe)
      members.append(
        (
          "bigrams",
          .object([
            ("inputs", .array(inputs)), ("kept", .number(tally.bigrams)), ("dropped", .number(tally.bigramsDropped)),
          ])
        ))
    }
    return .object(members)
  }

  private static func describe(_ report: WordListReport) -> JSONValue {
    let name = report.file.split(separator: "/").last.map(String.init) ?? report.file
    let crc = String(report.checksum, radix: 16)
    return .object([
      ("name", .string(name)),
      ("bytes", .number(report.rawBytes)),
      ("crc32c", .string(String(repeating: "0", count: 8 - crc.count) + crc)),
      ("format", report.format.map { .string($0.rawValue) } ?? .null),
      ("entries", .number(report.entries)),
      ("skipped", .number(report.skipped)),
    ])
  }
}
