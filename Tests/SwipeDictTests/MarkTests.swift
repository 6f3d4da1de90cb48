import Foundation
import SwipeDict
import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

/// An entry of a word list with what AOSP lists say beyond its count.
func markedEntry(
  _ word: String, _ count: Double, marks: WordMarks = [], misspelling: Bool = false,
  shortcuts: [Shortcut] = []
) -> WordListEntry {
  var entry = WordListEntry(word: word, count: count, line: 1)
  entry.marks = marks
  entry.isMisspelling = misspelling
  entry.shortcuts = shortcuts
  return entry
}

/// The `MARK` section: possibly offensive words are words but never suggestions,
/// abbreviations are marked, shortcuts (whitelisted corrections) are answered by spelling.
@Suite("Marks and shortcuts")
struct MarkTests {
  static func whitelisted(_ target: String) -> Shortcut {
    Shortcut(target: target, isWhitelisted: true, frequency: 255)
  }

  /// the, sex (offensive), set, see, seven, km (abbreviation), ill → I'll, I'll,
  /// acomodate (a misspelling) → accommodate, accommodate.
  static let entries: [WordListEntry] = [
    markedEntry("the", 1_000_000),
    markedEntry("sex", 900_000, marks: .possiblyOffensive),
    markedEntry("set", 500_000),
    markedEntry("see", 400_000),
    markedEntry("seven", 300_000),
    markedEntry("km", 200_000, marks: .abbreviation),
    markedEntry("I'll", 150_000),
    markedEntry("ill", 100_000, shortcuts: [whitelisted("I'll")]),
    markedEntry("acomodate", 1, misspelling: true, shortcuts: [whitelisted("accommodate")]),
    markedEntry("accommodate", 50_000),
    markedEntry("coeur", 10, shortcuts: [Shortcut(target: "cœur", isWhitelisted: false, frequency: 14)]),
  ]

  static func open(_ entries: [WordListEntry] = entries) throws -> (SwipeDictionary, CompileReport) {
    let compiled = try DictionaryCompiler.compile(entries: entries, layout: repositoryLayout("qwerty-en"))
    return (try SwipeDictionary(bytes: compiled.bytes, verify: true), compiled.report)
  }

  @Test func theBlobKeepsMarksAndShortcuts() throws {
    let (d, report) = try Self.open()
    #expect(d.wordCount == 10)  // the misspelling is no word
    #expect(!d.contains("acomodate"))
    #expect(d.marks(of: d.id(of: "sex")!) == .possiblyOffensive)
    #expect(d.marks(of: d.id(of: "km")!) == .abbreviation)
    #expect(d.marks(of: d.id(of: "the")!).isEmpty)
    #expect(d.marks(of: -1).isEmpty && d.marks(of: d.wordCount).isEmpty && d.marks(of: .max).isEmpty)
    #expect(d.shortcuts(for: "ill") == [Self.whitelisted("I'll")])
    #expect(d.shortcuts(for: "acomodate") == [Self.whitelisted("accommodate")])
    #expect(d.shortcuts(for: "coeur") == [Shortcut(target: "cœur", isWhitelisted: false, frequency: 14)])
    #expect(d.shortcuts(for: "Ill").isEmpty && d.shortcuts(for: "").isEmpty && d.shortcuts(for: "zzz").isEmpty)
    #expect(d.allShortcuts.map(\.source) == ["acomodate", "coeur", "ill"])
    #expect(report.neverSuggested == 1 && report.abbreviations == 1)
    #expect(report.misspellings == 1 && report.shortcuts == 3 && report.whitelisted == 2)
    #expect(d.contents.section(.marks) != nil)
    #expect(
      d.metadata?.contains(
        #""marks":{"possiblyOffensive":1,"abbreviation":1,"misspellings":1,"shortcuts":3,"whitelisted":2}"#) == true)
  }

  @Test func possiblyOffensiveWordsAreWordsButNeverSuggestions() throws {
    var (d, _) = try Self.open()
    let sex = try #require(d.id(of: "sex"))
    #expect(d.contains("sex") && d.ids(matchingFolded: "SEX") == [sex])
    #expect(!d.topWords(limit: 10).map(\.word).contains("sex"))
    #expect(d.completions(prefix: "se", limit: 10).map(\.word) == ["set", "see", "seven"])
    #expect(d.completions(prefix: "sex", limit: 10).isEmpty)
    #expect(!d.corrections(for: "sec", limit: 10).map(\.word).contains("sex"))
    // Typed exactly (in any case), it is the user's word: correction keeps it, as AOSP
    // keyboards do, and changes it into nothing else; never for another input.
    #expect(d.corrections(for: "sex", limit: 1).map(\.word) == ["sex"])
    #expect(d.corrections(for: "Sex", limit: 1).map(\.word) == ["sex"])
    #expect(d.corrections(for: "sex", limit: 1, model: .kaennsch()).map(\.word) == ["sex"])
    #expect(!d.corrections(for: "sexx", limit: 10).map(\.word).contains("sex"))
    // A keyboard whose user turned "Block offensive words" off.
    d.blocksOffensiveWords = false
    #expect(d.topWords(limit: 2).map(\.word) == ["the", "sex"])
    #expect(d.completions(prefix: "se", limit: 10).map(\.word) == ["sex", "set", "see", "seven"])
    #expect(d.corrections(for: "sex", limit: 1).map(\.word) == ["sex"])
  }

  @Test("a word<TAB>count list's third column marks words possibly offensive: words, never suggestions")
  func markColumnOfATSVList() throws {
    let directory = TemporaryDirectory()
    let path = directory.path + "/marked.tsv"
    try "the\t1000000\nsex\t900000\tpossibly_offensive\nset\t500000\nsee\t400000\nkm\t2000\tabbreviation\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    let compiled = try DictionaryCompiler.compile(inputs: [path], layout: repositoryLayout("qwerty-en"))
    let d = try SwipeDictionary(bytes: compiled.bytes, verify: true)
    #expect(compiled.report.neverSuggested == 1 && compiled.report.abbreviations == 1)
    let sex = try #require(d.id(of: "sex"))
    #expect(d.marks(of: sex) == .possiblyOffensive && d.marks(of: d.id(of: "km")!) == .abbreviation)
    #expect(!d.topWords(limit: 10).map(\.word).contains("sex"))
    #expect(d.completions(prefix: "se", limit: 10).map(\.word) == ["set", "see"])
    #expect(!d.corrections(for: "sec", limit: 10).map(\.word).contains("sex"))
  }

  @Test("a possibly offensive word the user added or learned is suggested; one the user blocked never is")
  func offensiveWordsTheUserTyped() throws {
    var (d, _) = try Self.open()
    d.userWords = try makeUserWords { _ = try $0.learn("sex") }
    #expect(d.topWords(limit: 2).map(\.word) == ["the", "sex"])
    #expect(d.completions(prefix: "se", limit: 10).map(\.word).first == "sex")
    #expect(d.corrections(for: "sec", limit: 10).map(\.word).contains("sex"))
    // Added counts too; another word's entry does not.
    d.userWords = try makeUserWords { _ = try $0.add("sex") }
    #expect(d.completions(prefix: "se", limit: 10).map(\.word).first == "sex")
    d.userWords = try makeUserWords { _ = try $0.learn("seven") }
    #expect(!d.completions(prefix: "se", limit: 10).map(\.word).contains("sex"))
    // Blocked, or learned in another case ("Sex" is not the blob's "sex"), it stays unsuggested.
    d.userWords = try makeUserWords { _ = try $0.block("sex") }
    #expect(!d.completions(prefix: "se", limit: 10).map(\.word).contains("sex"))
    d.userWords = try makeUserWords { _ = try $0.learn("Sex") }
    #expect(!d.topWords(limit: 10).map(\.word).contains("sex"))
    // Emptied again, the word is blocked again.
    d.userWords = UserWords()
    #expect(!d.completions(prefix: "se", limit: 10).map(\.word).contains("sex"))
  }

  @Test func whitelistedCorrectionsComeFirst() throws {
    var (d, _) = try Self.open(
      Self.entries + [
        markedEntry("sez", 1, misspelling: true, shortcuts: [Self.whitelisted("sex"), Self.whitelisted("see")]),
        markedEntry(
          "teh", 1, misspelling: true, shortcuts: [Self.whitelisted("the"), Self.whitelisted("United States")]),
      ])
    #expect(d.corrections(for: "acomodate", limit: 3).first?.word == "accommodate")
    #expect(d.corrections(for: "ill", limit: 3).first?.word == "I'll")
    #expect(d.corrections(for: "Ill", limit: 3).first?.word == "I'll")  // lowercased too
    let teh = d.corrections(for: "teh", limit: 3)
    #expect(teh.first?.word == "the" && teh.filter { $0.word == "the" }.count == 1)
    #expect(teh.first!.score > teh.dropFirst().map(\.score).max() ?? .min)
    // Several whitelisted targets in the section's order (see before sex); a possibly
    // offensive one is not suggested while blocked.
    #expect(!d.corrections(for: "sez", limit: 3).map(\.word).contains("sex"))
    #expect(d.corrections(for: "sez", limit: 3).first?.word == "see")
    d.blocksOffensiveWords = false
    #expect(d.corrections(for: "sez", limit: 3).map(\.word).prefix(2) == ["see", "sex"])
    #expect(d.corrections(for: "ill", limit: 0).isEmpty)
    // No shortcut: the ranking alone.
    #expect(d.corrections(for: "sevem", limit: 1).first?.word == "seven")
  }

  @Test func plainListsHaveNoMarkSection() throws {
    let (d, report) = try Self.open([markedEntry("a", 2), markedEntry("b", 1)])
    #expect(d.contents.section(.marks) == nil)
    #expect(d.marks(of: 0).isEmpty && d.shortcuts(for: "a").isEmpty && d.allShortcuts.isEmpty)
    #expect(report.neverSuggested == 0 && report.shortcuts == 0)
  }

  @Test func aMisspellingThatIsAlsoAWordIsAWord() throws {
    let (d, report) = try Self.open([
      markedEntry("lets", 1, misspelling: true, shortcuts: [Self.whitelisted("let's")]),
      markedEntry("lets", 5), markedEntry("let's", 9),
    ])
    #expect(d.contains("lets") && report.misspellings == 0)
    #expect(d.shortcuts(for: "lets") == [Self.whitelisted("let's")])
  }

  @Test func marksOfRepeatedEntriesAddUp() throws {
    let (d, _) = try Self.open([
      markedEntry("a", 2, marks: .abbreviation), markedEntry("a", 2, marks: .possiblyOffensive),
      markedEntry("b", 1),
    ])
    #expect(d.marks(of: d.id(of: "a")!) == [.abbreviation, .possiblyOffensive])
  }

  @Test("random marks and shortcuts come back exactly", arguments: [1, 2, 3] as [UInt64])
  func randomMarks(seed: UInt64) throws {
    var random = SeededGenerator(state: seed)
    let words = randomWords(count: 400, seed: seed)
    var expectedMarks: [String: WordMarks] = [:]
    var expectedShortcuts: [String: Set<Shortcut>] = [:]
    var entries: [WordListEntry] = []
    for (i, word) in words.enumerated() {
      let marks = WordMarks(rawValue: UInt32(random.next() % 4))
      var shortcuts: [Shortcut] = []
      for _ in 0..<(random.next() % 5 == 0 ? Int(random.next() % 3) + 1 : 0) {
        shortcuts.append(
          Shortcut(
            target: words[Int(random.next() % UInt64(words.count))] + "é", isWhitelisted: random.next() % 2 == 0,
            frequency: UInt8(random.next() % 256)))
      }
      let misspelling = i % 50 == 49
      entries.append(markedEntry(word, Double(i + 1), marks: marks, misspelling: misspelling, shortcuts: shortcuts))
      if !misspelling, !marks.isEmpty { expectedMarks[word, default: []].formUnion(marks) }
      if !shortcuts.isEmpty { expectedShortcuts[word, default: []].formUnion(shortcuts) }
    }
    let (d, _) = try Self.open(entries)
    for id in 0..<d.wordCount {
      let word = try #require(d.word(for: id))
      #expect(d.marks(of: id) == expectedMarks[word] ?? [], "\(word)")
    }
    for (word, shortcuts) in expectedShortcuts {
      let found = d.shortcuts(for: word)
      #expect(Set(found) == shortcuts, "\(word)")
      // Whitelisted first, then by frequency.
      #expect(
        found
          == found.sorted {
            ($0.isWhitelisted ? 1 : 0, $0.frequency) > ($1.isWhitelisted ? 1 : 0, $1.frequency)
              || ($0.isWhitelisted == $1.isWhitelisted && $0.frequency == $1.frequency
                && $0.target.utf8.lexicographicallyPrecedes($1.target.utf8))
          })
    }
  }

  // MARK: - Damage

  /// The blob of ``entries`` and where its MARK section is.
  static func blob() throws -> (bytes: [UInt8], offset: Int, length: Int, entry: Int) {
    let bytes = try DictionaryCompiler.compile(entries: entries, layout: repositoryLayout("qwerty-en")).bytes
    let d = try SwipeDictionary(bytes: bytes)
    let section = try #require(d.contents.section(.marks))
    let entry = try #require(bytes.entryOffset(of: .marks))
    return (bytes, Int(section.offset), Int(section.length), entry)
  }

  /// Opens (and verifies) bytes after fixing the section's checksum (MARK, or `tag`), so only
  /// the section's own checks can notice the damage; the error's reason, or nil if accepted.
  static func damageReason(
    _ bytes: [UInt8], _ blob: (bytes: [UInt8], offset: Int, length: Int, entry: Int), verify: Bool = true,
    tag: SectionTag = .marks
  ) -> String? {
    // The header checksum covers the section table, whose entry changes.
    let bytes = bytes.resealed(section: tag)
    do {
      _ = try SwipeDictionary(bytes: bytes, verify: verify)
      return nil
    } catch {
      guard case .invalid(let formatError) = error, formatError.section == tag else { return "\(error)" }
      return "\(formatError)"
    }
  }

  @Test func damagedHeadersAreRejectedAtOpen() throws {
    let blob = try Self.blob()
    for (field, value) in [(0, UInt32(11)), (8, 3), (12, 99), (16, 1), (8, .max), (16, .max)] {
      var bytes = blob.bytes
      bytes.setHeaderField(of: .marks, at: field, to: UInt64(value), width: 4)
      let reason = Self.damageReason(bytes, blob, verify: false)
      #expect(reason != nil, "MARK field \(field) = \(value) accepted")
      #expect(reason?.contains("MARK") == true, "\(reason ?? "")")
    }
  }

  @Test func damagedRecordsAreFoundByVerify() throws {
    let blob = try Self.blob()
    let records = blob.offset + MarkLayout.headerSize
    let shortcuts = records + 2 * MarkLayout.markRecordSize
    let cases: [(String, Int, UInt32)] = [
      ("marked IDs out of order", records, 9),
      ("marked ID beyond the words", records + 8, 10),
      ("unknown mark bit", records + 4, 1 << 7),
      ("empty marks", records + 4, 0),
      ("shortcut text outside the text", shortcuts, 1_000),
      ("shortcut flags unknown", shortcuts + 8, 0x0000_0200),
      ("shortcut text read twice", shortcuts + 12, 0),  // the second record's text offset
      ("shortcut reserved bytes", shortcuts + 8, 0x0001_0000 | 0xFF),
    ]
    for (name, at, value) in cases {
      var bytes = blob.bytes
      bytes.setUInt32(value, at: at)
      #expect(Self.damageReason(bytes, blob) != nil, "\(name) accepted")
    }
    // Sources out of order: swap the first two shortcut records.
    var bytes = blob.bytes
    let a = Array(bytes[shortcuts..<(shortcuts + 12)])
    bytes[shortcuts..<(shortcuts + 12)] = bytes[(shortcuts + 12)..<(shortcuts + 24)]
    bytes[(shortcuts + 12)..<(shortcuts + 24)] = a[...]
    #expect(Self.damageReason(bytes, blob) != nil, "unsorted sources accepted")
    // Invalid UTF-8 in the text.
    var text = blob.bytes
    text[blob.offset + blob.length - 1] = 0xFF
    #expect(Self.damageReason(text, blob) != nil, "invalid UTF-8 accepted")
  }

  @Test func damagedRecordsNeverCrashQueries() throws {
    let blob = try Self.blob()
    for at in stride(from: blob.offset + 64, to: blob.offset + blob.length, by: 3) {
      var bytes = blob.bytes
      bytes[at] ^= 0xA5
      guard let d = try? SwipeDictionary(bytes: bytes) else { continue }
      for id in [-1, 0, 1, 5, d.wordCount - 1, d.wordCount, .max] { _ = d.marks(of: id) }
      for word in ["ill", "acomodate", "coeur", "", "zzz"] { _ = d.shortcuts(for: word) }
      _ = d.allShortcuts
      _ = d.completions(prefix: "se", limit: 5)
    }
  }
}
