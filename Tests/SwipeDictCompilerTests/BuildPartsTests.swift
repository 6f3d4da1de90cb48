@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import SwipeDictTools
import Testing

@testable import SwipeDictCompiler

/// The pieces a build is made of besides the automaton: the word table the lists merge
/// into, the UTF-8 decoding it reads words with, the NFC shortcut, the second thread and
/// the queue that feeds it.
@Suite("Build parts: word table, UTF-8 scalars, NFC, background work, queue")
struct BuildPartsTests {
  @Test("the word table sums counts as a dictionary keyed by the word does", arguments: [UInt64(1), 2, 3])
  func wordCountsMatchDictionary(seed: UInt64) {
    var random = SeededGenerator(state: seed)
    var table = WordCounts()
    var reference: [String: Double] = [:]
    var firstSeen: [String] = []
    // Few distinct words for many adds: most adds find an entry; the table grows past its
    // first 1,024 slots several times.
    // In NFC, as the build adds them: the reference's String keys compare canonically.
    let vocabulary = (0..<5_000).map { _ in
      Normalization.nfc(IngestPropertyTests.randomWord(&random, allowComma: false))
    }
    for _ in 0..<20_000 {
      let word = vocabulary.randomElement(using: &random)!
      let count = Double(Int.random(in: 0...1000, using: &random))
      if reference[word] == nil { firstSeen.append(word) }
      reference[word, default: 0] += count
      table.add(word, count: count)
      // Batches end anywhere: placing early changes nothing.
      if Int.random(in: 0..<500, using: &random) == 0 { table.placePending() }
    }
    table.placePending()
    #expect(table.count == reference.count)
    // Entries keep the order they were first added in.
    let inOrder = (0..<table.count).map(table.word(at:)) == firstSeen
    #expect(inOrder)
    let mismatches = firstSeen.indices.filter { entry in
      table.index(of: firstSeen[entry]) != entry || table.counts[entry] != reference[firstSeen[entry]]
    }
    #expect(mismatches.isEmpty, "first: \(mismatches.first.map { firstSeen[$0] } ?? "")")
    #expect(table.index(of: "never added") == nil)
    // Byte order is code-point order.
    let pairs = (0..<1000).map { _ in
      (Int.random(in: 0..<table.count, using: &random), Int.random(in: 0..<table.count, using: &random))
    }
    let misordered = pairs.filter { a, b in
      let (wa, wb) = (table.word(at: a), table.word(at: b))
      return table.bytesPrecede(a, b) != wa.unicodeScalars.lexicographicallyPrecedes(wb.unicodeScalars)
    }
    #expect(misordered.isEmpty)
  }

  @Test("words that differ only in bytes a weak hash would merge stay apart")
  func wordCountsKeepNearWordsApart() {
    var table = WordCounts()
    let words = ["", "a", "a\0", "\0a", "ab", "ba", "é", "e\u{301}", String(repeating: "x", count: 70_000)]
    for (i, word) in words.enumerated() { table.add(word, count: Double(i)) }
    table.placePending()
    #expect(table.count == words.count)
    for (i, word) in words.enumerated() { #expect(table.counts[table.index(of: word) ?? -1] == Double(i)) }
  }

  @Test("UTF-8 is read as the scalars String reads", arguments: [UInt64(7), 8])
  func utf8ScalarsMatchString(seed: UInt64) {
    var random = SeededGenerator(state: seed)
    for _ in 0..<2_000 {
      let word = IngestPropertyTests.randomWord(&random, allowComma: true) + "\u{10FFFF}\u{7FF}\u{800}"
      var scalars: [Unicode.Scalar] = []
      Array(word.utf8).withUnsafeBufferPointer { bytes in
        UTF8Scalars.forEach(in: bytes) {
          scalars.append($0)
          return true
        }
      }
      #expect(scalars == Array(word.unicodeScalars))
    }
    // Stops when asked; invalid bytes read as U+FFFD instead of trapping.
    var seen = 0
    Array("abc".utf8).withUnsafeBufferPointer { bytes in
      UTF8Scalars.forEach(in: bytes) { _ in
        seen += 1
        return false
      }
    }
    #expect(seen == 1)
    for bad: [UInt8] in [[0xFF], [0x80, 0x41], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] {
      var read: [Unicode.Scalar] = []
      bad.withUnsafeBufferPointer { bytes in
        UTF8Scalars.forEach(in: bytes) {
          read.append($0)
          return true
        }
      }
      #expect(read.first == "\u{FFFD}", "\(bad)")
    }
  }

  @Test("text below U+0300 is left as it is; other text is composed")
  func nfcShortcut() {
    // Every scalar below U+0300, one after another: no pair of them composes.
    let below = String(String.UnicodeScalarView((0x20..<0x300).compactMap(Unicode.Scalar.init)))
    #expect(Normalization.nfc(below) == below)
    #expect(Array(Normalization.nfc(below).utf8) == Array(below.utf8))
    #expect(Array(Normalization.nfc("e\u{301}te\u{301}").utf8) == Array("été".utf8))
    #expect(Array(Normalization.nfc("A\u{30A}").utf8) == Array("Å".utf8))
    #expect(Array(Normalization.nfc("\u{1100}\u{1161}").utf8) == Array("가".utf8))  // Hangul jamo
  }

  /// A whole build hands its labels to a second thread for the automaton (`make tsan` runs
  /// this under ThreadSanitizer); the blob does not depend on which side finishes first.
  @Test func buildSharedBetweenThreads() throws {
    var random = SeededGenerator(state: 11)
    let letters = Array("abcdefghijklmnopqrstuvwxyzéü")
    let words = (0..<3_000).map { i in
      let length = Int.random(in: 1...9, using: &random)
      return (word: String((0..<length).map { _ in letters.randomElement(using: &random)! }), count: Double(i + 1))
    }
    let layout = repositoryLayout("qwerty-en")
    let first = try DictionaryCompiler.compile(words: words, layout: layout)
    let second = try DictionaryCompiler.compile(words: words.reversed(), layout: layout)
    #expect(first.bytes == second.bytes)
    #expect(first.report.words > 1_000)
  }

  /// Reading a list hands its entries to a second thread in batches (`make tsan` runs
  /// this under ThreadSanitizer): a file of several batches, with marks, misspellings,
  /// shortcuts and repeated words, builds the blob its entries build in memory, and a bad
  /// line far into the file is reported and leaves no thread waiting.
  @Test func readingSharedBetweenThreads() throws {
    var random = SeededGenerator(state: 12)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    var lines = ["dictionary=main:en,locale=en,description=English,date=1,version=1"]
    for i in 0..<(3 * DictionaryCompiler.entryBatchSize + 123) {
      let word = String((0..<Int.random(in: 1...7, using: &random)).map { _ in letters.randomElement(using: &random)! })
      let marks = [1: ",possibly_offensive=true", 2: ",not_a_word=true", 3: ",flags=abbreviation"][i % 97] ?? ""
      lines.append(" word=\(word),f=\(Int.random(in: 0...255, using: &random))\(marks)")
      if i % 89 == 4 { lines.append("  shortcut=\(word)s,f=whitelist") }
    }
    let directory = try IngestTemporaryDirectory()
    defer { directory.remove() }
    let layout = repositoryLayout("qwerty-en")
    let path = try directory.write("list.combined", Array((lines.joined(separator: "\n") + "\n").utf8))
    var entries: [WordListEntry] = []
    _ = try readWordList(atPath: path) { entries.append($0) }
    let fromFile = try DictionaryCompiler.compile(inputs: [path], layout: layout)
    let inMemory = try DictionaryCompiler.compile(entries: entries, layout: layout)
    // Every section but META (which names the inputs) is the same.
    func sectionsButMetadata(_ blob: [UInt8]) -> [[UInt8]] {
      (0..<Int(blob.uint32(at: 24))).compactMap { i in
        let entry = 64 + Int(blob.uint32(at: 28)) * i
        guard blob.uint32(at: entry) != SectionTag.metadata.rawValue else { return nil }
        let offset = Int(blob.uint64(at: entry + 8))
        return Array(blob[offset..<offset + Int(blob.uint64(at: entry + 16))])
      }
    }
    #expect(sectionsButMetadata(fromFile.bytes) == sectionsButMetadata(inMemory.bytes))
    #expect(sectionsButMetadata(fromFile.bytes).count >= 7)
    #expect(fromFile.report.entriesRead == entries.count)
    #expect(entries.count > 3 * DictionaryCompiler.entryBatchSize)
    #expect(fromFile.report.shortcuts > 0 && fromFile.report.neverSuggested > 0)
    #expect(fromFile.report.abbreviations > 0)
    #expect(fromFile.report.misspellings == inMemory.report.misspellings)

    lines.insert(" word=bad\u{7}word,f=10", at: 2 * DictionaryCompiler.entryBatchSize + 5)
    let bad = try directory.write("bad.combined", Array((lines.joined(separator: "\n") + "\n").utf8))
    #expect(throws: WordListError.self) { try DictionaryCompiler.compile(inputs: [bad], layout: layout) }
  }

  @Test(
    "words split at a first letter, sorted in two halves and joined, are in the order one sort gives",
    arguments: [UInt64(5), 6, 7])
  func splitSortMatchesOneSort(seed: UInt64) {
    var random = SeededGenerator(state: seed)
    // Skewed first letters (many words start with s), shared prefixes, a few accents.
    let letters = Array("sssssabcdeeefghilmnoprstuwyéü'")
    var table = WordCounts()
    for _ in 0..<4_000 {
      let length = Int.random(in: 1...12, using: &random)
      table.add(String((0..<length).map { _ in letters.randomElement(using: &random)! }), count: 1)
    }
    table.placePending()
    var scalars = Set<Unicode.Scalar>()
    for entry in 0..<table.count { scalars.formUnion(table.word(at: entry).unicodeScalars) }
    let alphabet = Collation.alphabet(of: scalars)
    let entries = (0..<UInt32(table.count)).shuffled(using: &random)
    func labels(_ words: LabeledWords) -> [[UInt8]] { (0..<words.count).map { words.withLabels(of: $0) { Array($0) } } }

    let (reordered, split) = LabeledWords.splitByFirstLabel(entries, of: table, alphabet: alphabet)
    #expect(Set(reordered) == Set(entries) && reordered.count == entries.count)
    let first = LabeledWords.sorted(Array(reordered[..<split]), of: table, alphabet: alphabet)
    let second = LabeledWords.sorted(Array(reordered[split...]), of: table, alphabet: alphabet)
    // Both halves hold words, each in the order it was given.
    #expect(split > entries.count / 4 && split < entries.count * 3 / 4, "split \(split) of \(entries.count)")
    let position = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($1, $0) })
    for part in [reordered[..<split], reordered[split...]] {
      #expect(zip(part, part.dropFirst()).allSatisfy { position[$0]! < position[$1]! })
    }
    let one = LabeledWords.sorted(entries, of: table, alphabet: alphabet)
    let joined = LabeledWords(joining: first.words, second.words)
    #expect(labels(joined) == labels(one.words))
    let order = first.order + second.order.map { $0 + UInt32(split) }
    #expect(order.map { reordered[Int($0)] } == one.order.map { entries[Int($0)] })
  }

  @Test("words that all start with one letter, or one word, leave a half empty and build as one sort does")
  func oneSidedSplit() throws {
    let layout = repositoryLayout("qwerty-en")
    for words in [["sea", "sa", "s", "sun", "ska"], ["word"]] {
      var table = WordCounts()
      for word in words { table.add(word, count: 1) }
      table.placePending()
      let alphabet = Collation.alphabet(of: Set(words.flatMap(\.unicodeScalars)))
      let entries = (0..<UInt32(table.count)).map { $0 }
      let (reordered, split) = LabeledWords.splitByFirstLabel(entries, of: table, alphabet: alphabet)
      #expect(split == 0 || split == entries.count)
      #expect(LabeledWords.sorted([], of: table, alphabet: alphabet).order.isEmpty)
      #expect(reordered.count == entries.count)
      let blob = try DictionaryCompiler.compile(words: words.map { ($0, 1) }, layout: layout)
      #expect(blob.report.words == words.count)
    }
  }

  @Test("the bounded queue passes every element in order from one thread to another, then ends")
  func queueSharedBetweenThreads() throws {
    let queue = BoundedQueue<[Int]>(capacity: 2)
    let received = BackgroundWork { () -> [Int] in
      var all: [Int] = []
      while let batch = queue.next() { all += batch }
      return all
    }
    for start in stride(from: 0, to: 10_000, by: 100) { queue.send(Array(start..<start + 100)) }
    queue.close()
    #expect(received.wait() == Array(0..<10_000))
    queue.send([1])  // dropped: the queue is closed
    #expect(queue.next() == nil)

    // Closed with elements left: they come out first.
    let left = BoundedQueue<Int>(capacity: 3)
    left.send(7)
    left.send(8)
    left.close()
    #expect(left.next() == 7)
    #expect(left.next() == 8)
    #expect(left.next() == nil)
  }

  @Test("a count of -0.0 builds the blob a count of 0 builds")
  func negativeZeroCount() throws {
    let layout = repositoryLayout("qwerty-en")
    let zero = try DictionaryCompiler.compile(words: [("as", 0), ("is", 0)], layout: layout)
    let negative = try DictionaryCompiler.compile(words: [("as", -0.0), ("is", -0.0)], layout: layout)
    #expect(zero.bytes == negative.bytes)
  }

  struct Failure: Error, Equatable { var side: String }

  @Test("background work returns its value or throws its error when waited for")
  func backgroundWork() throws {
    let sum = BackgroundWork { () throws(Failure) -> Int in (1...1_000).reduce(0, +) }
    #expect(try sum.wait() == 500_500)
    let failing = BackgroundWork { () throws(Failure) -> Int in throw Failure(side: "other") }
    #expect(throws: Failure(side: "other")) { try failing.wait() }
  }
}
