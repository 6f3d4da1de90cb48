import Foundation
import SwipeDict
import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

@testable @_spi(SwipeDictInternals) import SwipeDict

@Suite("Word pairs: the BIGR section, next-word predictions")
struct BigramTests {
  static let words: [(word: String, count: Double)] = [
    ("I", 900), ("am", 500), ("going", 400), ("to", 1_000), ("the", 2_000), ("school", 50), ("park", 40),
    ("home", 60), ("go", 300), ("went", 80),
  ]
  static let pairs: [(first: String, second: String, count: Double)] = [
    ("going", "to", 5_000), ("going", "home", 300), ("to", "the", 8_000), ("to", "school", 900),
    ("to", "go", 700), ("the", "park", 200), ("the", "school", 400), ("I", "am", 3_000), ("I", "went", 100),
    ("went", "home", 50), ("went", "to", 400), ("nowhere", "to", 10), ("to", "nowhere", 10),
  ]

  static func dictionary() throws -> (SwipeDictionary, CompileReport, [UInt8]) {
    let result = try DictionaryCompiler.compile(words: words, bigrams: pairs, layout: repositoryLayout("qwerty-en"))
    return (try SwipeDictionary(bytes: result.bytes, verify: true), result.report, result.bytes)
  }

  @Test func nextWordsComeByPairFrequency() throws {
    let (d, report, _) = try Self.dictionary()
    #expect(d.hasBigrams)
    #expect(report.bigrams == 11 && report.bigramsDropped == 2)  // "nowhere" is no word
    #expect(d.nextWords(after: "to").map(\.word) == ["the", "school", "go"])
    #expect(d.nextWords(after: "going", limit: 1).map(\.word) == ["to"])
    #expect(d.nextWords(after: "Going").map(\.word) == ["to", "home"])  // a sentence start
    #expect(d.nextWords(after: "park").isEmpty && d.nextWords(after: "nowhere").isEmpty)
    #expect(d.nextWords(after: "to", limit: 0).isEmpty)
    let to = try #require(d.id(of: "to"))
    let the = try #require(d.id(of: "the"))
    #expect(d.bigramFrequency(of: the, after: to) == 255)  // the most frequent pair
    #expect(d.bigramFrequency(of: to, after: the) == nil)
    let school = try #require(d.id(of: "school"))
    let expected = FrequencyLayout.quantize(900, scale: log1p(8_000))
    #expect(d.bigramFrequency(of: school, after: to) == expected)
  }

  @Test func pairsMeetTheBlobsSpellings() throws {
    // "i am" and "I am" are one pair of the blob's "I"; a count of 0 is dropped and counted;
    // huge counts stay finite.
    let result = try DictionaryCompiler.compile(
      words: Self.words,
      bigrams: [("i", "am", 5), ("I", "am", 3), ("to", "go", 0), ("going", "to", 1e308), ("going", "to", 1e308)],
      layout: repositoryLayout("qwerty-en"))
    let d = try SwipeDictionary(bytes: result.bytes, verify: true)
    #expect(result.report.bigrams == 2 && result.report.bigramsDropped == 1)
    #expect(d.nextWords(after: "i").map(\.word) == ["am"])  // the previous word capitalized
    #expect(d.nextWords(after: "GOING").map(\.word) == ["to"])
  }

  @Test func blobsWithoutPairsHaveNoSection() throws {
    let plain = try DictionaryCompiler.compile(words: Self.words, layout: repositoryLayout("qwerty-en"))
    let d = try SwipeDictionary(bytes: plain.bytes, verify: true)
    #expect(!d.hasBigrams && d.nextWords(after: "to").isEmpty)
    #expect(d.contents.section(.bigrams) == nil)
    // Pairs whose words are all unknown add nothing either.
    let none = try DictionaryCompiler.compile(
      words: Self.words, bigrams: [("x", "y", 3)], layout: repositoryLayout("qwerty-en"))
    #expect(try SwipeDictionary(bytes: none.bytes).contents.section(.bigrams) == nil)
    #expect(none.report.bigramsDropped == 1)
  }

  @Test("random pairs come back exactly", arguments: [UInt64(1), 2, 3])
  func randomPairsRoundTrip(seed: UInt64) throws {
    var generator = SeededGenerator(state: seed)
    let words = randomWords(count: 400, seed: seed, maxLength: 7)
    var pairs: [String: [String: Double]] = [:]
    for _ in 0..<3_000 {
      let a = words.randomElement(using: &generator)!
      let b = words.randomElement(using: &generator)!
      pairs[a, default: [:]][b, default: 0] += Double(Int.random(in: 1...100_000, using: &generator))
    }
    let list = pairs.flatMap { a, followers in followers.map { (first: a, second: $0.key, count: $0.value) } }
    let entries = words.enumerated().map { (word: $1, count: Double(1 + ($0 * 7919) % 1000)) }
    let result = try DictionaryCompiler.compile(words: entries, bigrams: list, layout: testLayout())
    let blob = try SwipeDictionary(bytes: result.bytes, verify: true)
    let scale = log1p(list.map(\.count).max()!)
    for (first, second, count) in list.prefix(500) {
      let a = try #require(blob.id(of: first))
      let b = try #require(blob.id(of: second))
      #expect(blob.bigramFrequency(of: b, after: a) == FrequencyLayout.quantize(count, scale: scale))
    }
    #expect(result.report.bigrams == list.count)
  }

  @Test func aBigramFileIsReadWithItsErrorsNamed() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bigrams-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let words = directory.appendingPathComponent("words.tsv").path
    try Data("going\t400\nto\t1000\nthe\t2000\n".utf8).write(to: URL(fileURLWithPath: words))
    let good = directory.appendingPathComponent("good.tsv").path
    // TAB before the count, or three space-separated fields (the symspellpy/Norvig format).
    try Data("# pairs\ngoing to\t5000\nto the 8000\ngoing to\t1000\n".utf8).write(to: URL(fileURLWithPath: good))
    let result = try DictionaryCompiler.compile(inputs: [words], bigrams: [good], layout: repositoryLayout("qwerty-en"))
    #expect(result.report.bigrams == 2 && result.report.bigramInputs.count == 1)
    let d = try SwipeDictionary(bytes: result.bytes, verify: true)
    #expect(d.nextWords(after: "going").map(\.word) == ["to"])
    for (text, message) in [
      ("going to\n", "missing count"), ("going\t5\n", "expected two words"), ("going to the\t5\n", "word contains"),
      ("going to\t5\tx\n", "extra column"), ("going to\t-5\n", "count"), (" going to\t5\n", "starts with whitespace"),
      ("going to the 5\n", "missing count"),
    ] {
      let bad = directory.appendingPathComponent("bad.tsv").path
      try Data(("going to\t1\n" + text).utf8).write(to: URL(fileURLWithPath: bad))
      #expect {
        try DictionaryCompiler.compile(inputs: [words], bigrams: [bad], layout: repositoryLayout("qwerty-en"))
      } throws: { error in
        "\(error)".contains("bad.tsv:2") && "\(error)".contains(message)
      }
    }
  }

  // MARK: - Damage

  static func blob() throws -> (bytes: [UInt8], offset: Int, length: Int, entry: Int) {
    let (d, _, bytes) = try dictionary()
    let section = try #require(d.contents.section(.bigrams))
    let entry = try #require(bytes.entryOffset(of: .bigrams))
    return (bytes, Int(section.offset), Int(section.length), entry)
  }

  @Test func damagedHeadersAreRejectedAtOpen() throws {
    let blob = try Self.blob()
    for (field, value) in [
      (0, UInt32(11)), (8, 30), (12, 99), (16, 1), (8, .max), (16, .max), (12, 0), (8, 0), (20, 1), (40, 7),
    ] {
      var bytes = blob.bytes
      bytes.setHeaderField(of: .bigrams, at: field, to: UInt64(value), width: 4)
      let reason = MarkTests.damageReason(bytes, blob, verify: false, tag: .bigrams)
      #expect(reason?.contains("BIGR") == true, "BIGR field \(field) = \(value): \(reason ?? "accepted")")
    }
    // The scale and the unigram total: finite, not negative.
    for (field, value) in [(24, -1.0), (24, .nan), (32, -0.5), (32, .infinity), (32, .nan)] {
      var bytes = blob.bytes
      bytes.setHeaderField(of: .bigrams, at: field, to: value.bitPattern, width: 8)
      let reason = MarkTests.damageReason(bytes, blob, verify: false, tag: .bigrams)
      #expect(reason?.contains("BIGR") == true, "BIGR float at \(field) = \(value): \(reason ?? "accepted")")
    }
  }

  @Test func damagedRecordsAreFoundByVerify() throws {
    let blob = try Self.blob()
    let records = blob.offset + BigramLayout.headerSize
    let cases: [(String, Int, UInt32)] = [
      ("first words out of order", records, 9),
      ("first word beyond the words", records + 8, 1_000),
      ("offset out of order", records + 12, 0),
      ("first offset not 0", records + 4, 2),
    ]
    for (name, at, value) in cases {
      var bytes = blob.bytes
      bytes.setUInt32(value, at: at)
      #expect(MarkTests.damageReason(bytes, blob, tag: .bigrams) != nil, "\(name) accepted")
    }
    // A follower beyond the words: the first entry's varint.
    var bytes = blob.bytes
    let entries = records + 4 * BigramLayout.firstRecordSize
    bytes[entries] = 0x7F
    #expect(MarkTests.damageReason(bytes, blob, tag: .bigrams) != nil, "follower beyond the words accepted")
  }

  @Test func damagedRecordsNeverCrashQueries() throws {
    let blob = try Self.blob()
    for at in stride(from: blob.offset + 8, to: blob.offset + blob.length, by: 1) {
      for flip: UInt8 in [0xA5, 0x80] {
        var bytes = blob.bytes
        bytes[at] ^= flip
        guard let d = try? SwipeDictionary(bytes: bytes) else { continue }
        for word in ["to", "going", "I", "the", "", "zzz"] { _ = d.nextWords(after: word, limit: 5) }
        for a in [-1, 0, 3, d.wordCount - 1, d.wordCount, .max] {
          for b in [-1, 0, 5, d.wordCount] { _ = d.bigramFrequency(of: b, after: a) }
        }
      }
    }
  }
}
