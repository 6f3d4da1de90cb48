import SwipeDict
import SwipeDictCompiler
@_spi(SwipeDictInternals) import SwipeDictFormat
import SwipeDictTestSupport
import Testing

/// The exact bytes of a tiny blob's sections, derived by hand from the format description
/// in `DAWGLayout`, `Alphabet`, `FrequencyLayout`, `FeatureLayout`, `PrefixTreeLayout` and
/// `BestListLayout`.
/// A change here is a format change.
@Suite("Golden bytes")
struct GoldenBytesTests {
  func section(_ tag: SectionTag, of blob: [UInt8]) throws -> [UInt8] {
    let dictionary = try SwipeDictionary(bytes: blob)
    let entry = try #require(dictionary.contents.section(tag))
    return Array(blob[Int(entry.offset)..<Int(entry.offset + entry.length)])
  }

  @Test("a, ab, b")
  func tinyBlob() throws {
    let blob = try DictionaryCompiler.compile(
      words: [("a", 100), ("ab", 10), ("b", 1)], layout: testLayout()
    ).bytes
    // States: the sink S (final, no transitions), A = "a" (final, b → S), the root (a → A,
    // b → S). S is written first (the most referenced), then A, then the root.
    let expectedArea: [UInt8] = [
      0x00, 0x40,  // S at 1: n byte 0, general header (final, n code 0)
      0xC0,  // A at 2: single (final, mode 0 = the node just before, inline label 0 = "b")
      0x04,  // root: target field of a → A: absolute address 2, stored as 2 << 1
      0x02,  // root: output of transition b (A accepts 2 words)
      0x00, 0x01,  // root: labels a, b
      0x11,  // root at 7: pair header (code1 = 0: b → sink, code0 = 1: one-byte field)
    ]
    var expectedDAWG: [UInt8] = []
    func append(_ value: UInt64, _ width: Int) {
      for i in 0..<width { expectedDAWG.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }
    append(3, 8)  // words
    append(UInt64(expectedArea.count), 8)  // node bytes
    append(7, 8)  // root address
    append(3, 4)  // states
    append(3, 4)  // transitions
    append(2, 4)  // longest word
    append(1, 4)  // sink address
    expectedDAWG += [1] + [UInt8](repeating: 0, count: 15)  // inline labels: "b"
    expectedDAWG += [UInt8](repeating: 0, count: 8)
    expectedDAWG += expectedArea
    #expect(try section(.dawg, of: blob) == expectedDAWG)

    #expect(
      try section(.alphabet, of: blob) == [
        2, 0, 0, 0, 0, 0, 0, 0,
        0x61, 0, 0, 0, 0x61, 0, 0, 0,
        0x62, 0, 0, 0, 0x62, 0, 0, 0,
        0, 1,  // labels in code-point order
      ])

    let frequency = try section(.frequency, of: blob)
    #expect(frequency.count == 64 + 3)
    #expect(Array(frequency[0..<8]) == [3, 0, 0, 0, 0, 0, 0, 0])
    // a: 255, ab: round(255 × ln 11 / ln 101) = round(132.49) = 132, b: round(255 × ln 2 / ln 101) = 38
    #expect(Array(frequency[64...]) == [255, 132, 38])

    // Features on the test layout (key width 10): a is key 10 at (10, 21), b is key 23 at
    // (55, 35). "ab" is √(45² + 14²) = 47.13 pt = 4.713 key widths long: code round(37.70) = 38.
    // 26 keys: narrow records (1.5), 3 bytes each without the key count, then a zero byte.
    func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
    func record(first: UInt32, second: UInt32, last: UInt32, length: UInt32) -> [UInt8] {
      Array(u32(first | second << 5 | last << 10 | length << 15).prefix(3))
    }
    var expectedFeatures: [UInt8] = [3, 0, 0, 0, 0, 0, 0, 0] + u32(26) + u32(3) + [UInt8](repeating: 0, count: 48)
    expectedFeatures += record(first: 10, second: 31, last: 10, length: 0)  // a
    expectedFeatures += record(first: 10, second: 23, last: 23, length: 38)  // ab
    expectedFeatures += record(first: 23, second: 31, last: 23, length: 0)  // b
    expectedFeatures += [0]
    #expect(try section(.features, of: blob) == expectedFeatures)
    #expect(blob.uint32(at: 12) == BlobFormat.narrowFeaturesFlag)

    // The tree: the root splits (always); a holds IDs 0, 1 and b holds ID 2, both leaves.
    var expectedTree: [UInt8] = [3, 0, 0, 0, 0, 0, 0, 0]  // words
    expectedTree += u32(1) + u32(2) + u32(3)  // interior nodes, leaves, top words
    expectedTree += u32(0) + u32(11) + u32(7)  // root reference, leaf bytes, top spelling bytes
    expectedTree += u32(200) + u32(3) + [UInt8](repeating: 0, count: 24)
    expectedTree += u32(0x8000_0000) + u32(0x8000_0001) + [UInt8](repeating: 0, count: 25 * 4)
    expectedTree += u32(0) + u32(6) + u32(11)  // leaf offsets
    expectedTree += u32(0) + u32(1) + u32(2)  // top IDs: a (255), ab (132), b (38)
    expectedTree += [2, 1, 0, 2, 0, 1]  // leaf 0: 2 words, 1 run (gap 0, length 2), ranks 0 1
    expectedTree += [1, 1, 2, 1, 0]  // leaf 1: 1 word, 1 run (gap 2, length 1), rank 0
    expectedTree += [1, 0, 2, 0, 1, 1, 1]  // top spellings: "a", "ab", "b" as labels
    #expect(try section(.prefixTree, of: blob) == expectedTree)

    // The best lists (1.3): the root is the only interior node and lists all three words,
    // most frequent first, each as varint ID, varint length, labels.
    var expectedBest: [UInt8] = [3, 0, 0, 0, 0, 0, 0, 0]  // words
    expectedBest += u32(1) + u32(16) + u32(10)  // nodes, list length, data bytes
    expectedBest += [UInt8](repeating: 0, count: 44)
    expectedBest += u32(0) + u32(10)  // list offsets
    expectedBest += [0, 1, 0, 1, 2, 0, 1, 2, 1, 1]  // a (ID 0), ab (ID 1), b (ID 2)
    #expect(try section(.bestLists, of: blob) == expectedBest)

    let dictionary = try SwipeDictionary(bytes: blob, verify: true)
    #expect(Array(dictionary.words(withPrefix: "")).map(\.word) == ["a", "ab", "b"])
    #expect(dictionary.contents.section(.marks) == nil)  // a plain list: no MARK section
  }

  @Test("ba … br: a leaf of 18 words ranks its 16 most frequent (format 1.5)")
  func rankedLeaf() throws {
    // "ba" … "br" are IDs 0…17, counts 1…18: the most frequent is the last. The root splits
    // (always); its child b holds all 18, a leaf.
    let letters = "abcdefghijklmnopqr".map { "b\($0)" }
    let blob = try DictionaryCompiler.compile(
      words: letters.enumerated().map { (word: $1, count: Double($0 + 1)) }, layout: testLayout()
    ).bytes
    #expect(blob.uint32(at: 12) == BlobFormat.rankedLeavesFlag | BlobFormat.narrowFeaturesFlag)
    let tree = try section(.prefixTree, of: blob)
    #expect(tree.uint32(at: 40) == 16)  // ranked count
    // One interior node (27 references), leaf offsets 0 and 20, 18 top IDs, then the leaf.
    let leafStart = 64 + 27 * 4 + 2 * 4 + 18 * 4
    #expect(tree.uint32(at: 24) == 20)  // leaf bytes
    #expect(Array(tree[leafStart..<(leafStart + 20)]) == [18, 1, 0, 18] + (2...17).reversed().map(UInt8.init))

    let d = try SwipeDictionary(bytes: blob, verify: true)
    // Past the ranked 16 the leaf orders the rest from FREQ: "bb", then "ba".
    #expect(d.completions(prefix: "b", limit: 18).map(\.word) == letters.reversed())
    #expect(d.completions(prefix: "b", limit: 3).map(\.word) == ["br", "bq", "bp"])
  }

  @Test("a, ab (possibly offensive), b (abbreviation); shortcuts ab → a, ba → b")
  func markSection() throws {
    var ab = WordListEntry(word: "ab", count: 10, line: 2)
    ab.marks = .possiblyOffensive
    ab.shortcuts = [Shortcut(target: "a", isWhitelisted: false, frequency: 7)]
    var b = WordListEntry(word: "b", count: 1, line: 3)
    b.marks = .abbreviation
    var ba = WordListEntry(word: "ba", count: 1, line: 4)
    ba.isMisspelling = true
    ba.shortcuts = [Shortcut(target: "b", isWhitelisted: true, frequency: 255)]
    let blob = try DictionaryCompiler.compile(
      entries: [WordListEntry(word: "a", count: 100, line: 1), ab, b, ba], layout: testLayout()
    ).bytes
    func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
    var expected: [UInt8] = [3, 0, 0, 0, 0, 0, 0, 0]  // words
    expected += u32(2) + u32(2) + u32(6)  // marked words, shortcuts, text bytes
    expected += [UInt8](repeating: 0, count: 44)
    expected += u32(1) + u32(1)  // ab (ID 1): possibly offensive
    expected += u32(2) + u32(2)  // b (ID 2): abbreviation
    expected += u32(0) + [2, 0, 1, 0, 7, 0, 0, 0]  // "ab" → "a": text 0, lengths 2 and 1, f 7
    expected += u32(3) + [2, 0, 1, 0, 255, 1, 0, 0]  // "ba" → "b": text 3, whitelisted
    expected += Array("ab".utf8) + Array("a".utf8) + Array("ba".utf8) + Array("b".utf8)
    #expect(try section(.marks, of: blob) == expected)
    let dictionary = try SwipeDictionary(bytes: blob, verify: true)
    #expect(dictionary.wordCount == 3)  // "ba" is a misspelling, no word
    #expect(dictionary.shortcuts(for: "ba") == [Shortcut(target: "b", isWhitelisted: true, frequency: 255)])
  }
}
